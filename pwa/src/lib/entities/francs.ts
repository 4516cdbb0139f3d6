// Estimates in Congolese francs beside US dollar prices (docs/money.md): for people
// in the DRC, at the newest rate an admin set, received by sync like the catalogue.
import { useLiveQuery } from 'dexie-react-hooks';
import { numberFormat } from '../format';
import { currentLanguage } from '../i18n';
import type { Rate } from './rates';
import { useSession } from '../session';
import { useOpenDb } from '../sync/provider';

const DRC_TIME_ZONES = ['Africa/Lubumbashi', 'Africa/Kinshasa'];
/** Their offsets from UTC in minutes, as `getTimezoneOffset` writes them (no summer time). */
const DRC_OFFSETS = [-60, -120];

let zone: string | undefined;
/**
 * The phone's time zone, read once, and only where it may be the DRC's: the first
 * `Intl.DateTimeFormat` costs a slow phone some 80 ms of a page's first render.
 */
function phoneZone(): string {
  zone ??= DRC_OFFSETS.includes(new Date().getTimezoneOffset()) ? Intl.DateTimeFormat().resolvedOptions().timeZone : '';
  return zone;
}

/**
 * Whether someone is in the DRC: their account's country says so; for a visitor (or an
 * account without one), their phone's languages or time zone.
 */
export function inDrc(
  country: string | null | undefined,
  zoneOf: () => string = phoneZone,
  languages: readonly string[] = navigator.languages,
): boolean {
  if (country) return country === 'DRC';
  return languages.some((tag) => /-CD$/i.test(tag)) || DRC_TIME_ZONES.includes(zoneOf());
}

/** Whole francs, written as people in the DRC write them ("4 275 FC" in French), their
 * thousands grouped as the language's other numbers are: Congo's Kiswahili groups with a
 * dot ("FC 4.076") beside dollars written with a decimal dot ("US$ 1.43"), so Kiswahili
 * takes its own grouping ("FC 4,076"), one number format per language. */
export function formatFrancs(amount: number): string {
  const language = currentLanguage();
  const group = numberFormat({}, language)
    .formatToParts(1000)
    .find((part) => part.type === 'group')?.value;
  return numberFormat(
    {
      style: 'currency',
      currency: 'CDF',
      currencyDisplay: 'narrowSymbol',
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    },
    `${language}-CD`,
  )
    .formatToParts(Math.round(amount))
    .map((part) => (part.type === 'group' && group ? group : part.value))
    .join('');
}

export interface Francs {
  rate: Rate;
  /** "≈ 4 275 FC" for an amount in US dollars. */
  of(usd: number): string;
}

/** Francs for this person: null outside the DRC, or before any rate reached this phone. */
export function useFrancs(): Francs | null {
  const db = useOpenDb();
  const { user } = useSession();
  const wanted = inDrc(user?.country);
  const rate = useLiveQuery(async () => (db && wanted ? await db.rates.get('CDF') : undefined), [db, wanted]);
  if (!rate) return null;
  return { rate, of: (usd) => `≈ ${formatFrancs(usd * rate.francs_per_usd)}` };
}
