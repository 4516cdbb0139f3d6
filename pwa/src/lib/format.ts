// Dates through Intl, in the person's language (money and numbers join when
// the marketplace needs them).
import { currentLanguage } from './i18n';

export function formatDate(iso: string | null | undefined, style: 'short' | 'long' = 'long'): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(currentLanguage(), style === 'long' ? { dateStyle: 'long' } : { dateStyle: 'medium' }).format(date);
}
