// Dates, money, sizes and durations through Intl, in the person's language.
import { currentLanguage } from './i18n';
import type { TFunction } from 'i18next';

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

/** Made once per language and options: making an Intl formatter costs a slow phone far more than using one. */
function made<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

export function numberFormat(options: Intl.NumberFormatOptions, locale: string = currentLanguage()): Intl.NumberFormat {
  return made(`n ${locale} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = currentLanguage();
  return made(`d ${locale} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

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
  return dateFormat(STYLES[style]).format(date);
}

/** US dollars (the platform's currency, docs/product.md, Constants) in the person's language. */
export function formatMoney(amount: number): string {
  return numberFormat({ style: 'currency', currency: 'USD' }).format(amount);
}

/** A calendar date (YYYY-MM-DD) in the person's language, without time-zone shifts. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '';
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return '';
  return dateFormat({ dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d));
}

/** A size such as "93 kB" or "1.2 MB", in the person's language. */
export function formatBytes(bytes: number): string {
  const [value, unit] =
    bytes >= 1_000_000 ? [bytes / 1_000_000, 'megabyte'] : [Math.max(bytes, 1000) / 1000, 'kilobyte'];
  return numberFormat({
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 ? 1 : 0,
  }).format(value);
}

/** A duration such as "35 min" or "1 h 20 min", in the person's language. */
export function formatMinutes(total: number): string {
  const unit = (value: number, name: 'hour' | 'minute') =>
    numberFormat({ style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return unit(minutes, 'minute');
  return minutes === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
}

/** The provinces MAVUNO writes into places in English ("Kabare, South Kivu": an agent's or a
 * basic phone's registration, the demo's farmers), by the key that names them. */
const PROVINCES = { 'South Kivu': 'places.south_kivu', 'North Kivu': 'places.north_kivu' } as const;

/** A place as people read it in their language: the provinces we write are translated
 * ("Kabare, Sud-Kivu"); what a person typed is left as typed. */
export function placeName(place: string, t: (key: (typeof PROVINCES)[keyof typeof PROVINCES]) => string): string {
  return place.replace(/\b(South|North) Kivu\b/g, (province) => t(PROVINCES[province as keyof typeof PROVINCES]));
}

/** Today on this phone, in its own time zone, as a date field wants it (YYYY-MM-DD). */
export function localToday(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/** The days of the week as the server writes them, in the week's order. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** Monday to Saturday: a lot's days when its record is older than its days. */
export const STORE_DAYS: readonly Weekday[] = WEEKDAYS.slice(0, 6);

/** Days of the week as the server's `Lang::week_days` writes them: "every day", "Monday to
 * Saturday" (three or more in a row), "Monday, Wednesday and Friday". */
export function weekDays(days: readonly string[], t: TFunction): string {
  const known = WEEKDAYS.filter((day) => days.includes(day));
  const name = (day: Weekday) => t(`weekdays.${day}`);
  const [first] = known;
  const last = known.at(-1);
  if (!first || !last) return '';
  if (known.length === 7) return t('weekdays.every_day');
  const inARow = known.every((day, i) => WEEKDAYS.indexOf(day) - i === WEEKDAYS.indexOf(first));
  if (known.length >= 3 && inARow) return t('weekdays.range', { from: name(first), to: name(last) });
  if (known.length === 1) return name(first);
  return t('weekdays.list', { some: known.slice(0, -1).map(name).join(', '), last: name(last) });
}
