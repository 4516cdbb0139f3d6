// Dates, numbers and money through Intl, in the person's language.
import { currentLanguage } from './i18n';

export function formatDate(iso: string | null | undefined, style: 'short' | 'long' = 'long'): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(currentLanguage(), style === 'long' ? { dateStyle: 'long' } : { dateStyle: 'medium' }).format(date);
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(currentLanguage()).format(value);
}

export function formatMoney(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat(currentLanguage(), { style: 'currency', currency }).format(amount);
}
