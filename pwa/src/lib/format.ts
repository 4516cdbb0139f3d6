// Dates through Intl, in the person's language (money and numbers join when
// the marketplace needs them).
import { currentLanguage } from './i18n';

const STYLES: Record<'short' | 'long' | 'time', Intl.DateTimeFormatOptions> = {
  long: { dateStyle: 'long' },
  short: { dateStyle: 'medium' },
  time: { dateStyle: 'medium', timeStyle: 'short' },
};

/** `time` adds the hour: for things that change within a day. */
export function formatDate(iso: string | null | undefined, style: 'short' | 'long' | 'time' = 'long'): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(currentLanguage(), STYLES[style]).format(date);
}

/** US dollars (the platform's currency, docs/product.md, Constants) in the person's language. */
export function formatMoney(amount: number): string {
  return new Intl.NumberFormat(currentLanguage(), { style: 'currency', currency: 'USD' }).format(amount);
}

/** A calendar date (YYYY-MM-DD) in the person's language, without time-zone shifts. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '';
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return '';
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'long', timeZone: 'UTC' }).format(
    Date.UTC(y, m - 1, d),
  );
}
