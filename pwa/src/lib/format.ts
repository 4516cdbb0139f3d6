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
