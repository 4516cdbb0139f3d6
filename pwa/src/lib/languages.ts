// Our three languages, and how a browser's language tag maps onto them. Apart from
// i18n.ts (which brings i18next), so that the page's first script (lib/app-files.ts)
// can ask for the reader's words with the app's code, rather than once the app has run
// and i18next has asked (a round trip and 21-24 KB after the app's code: on slow 3G ~1 s).
export const LANGUAGES = ['en', 'fr', 'sw'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français', sw: 'Kiswahili' };
/** Where the person's language is kept (i18n.ts, `languageDetector`; i18next's name), and the cookie the server reads. */
export const LANGUAGE_CACHE_KEY = 'i18nextLng';
export const LANGUAGE_COOKIE = 'mavuno_lng';

const FRENCH_REGIONS = ['cd', 'bi', 'be', 'fr'];

/** fr* → French, sw* → Kiswahili, en* → English, a French-speaking region
 * (CD, BI, BE, FR) → French; anything else is returned as it is, so that the
 * guess passes over it to the person's next browser language. */
export function toCandidate(tag: string): string {
  const lower = tag.toLowerCase().replace(/_/g, '-');
  const [language, ...rest] = lower.split('-');
  if (language === 'fr' || language === 'sw') return language;
  if (rest.some((part) => FRENCH_REGIONS.includes(part))) return 'fr';
  if (language === 'en') return 'en';
  return lower;
}

/** One of our languages for any tag: English when nothing else fits. */
export function toSupportedLanguage(tag: string | null | undefined): Language {
  const candidate = tag ? toCandidate(tag) : 'en';
  return (LANGUAGES as readonly string[]).includes(candidate) ? (candidate as Language) : 'en';
}

/**
 * The reader's language, for the page's first script and for i18next alike (i18n.ts,
 * `languageDetector`): the first of the address's `?lng`, the cookie, local and session
 * storage, the browser's languages and the page's `lang` that is one of ours, else English.
 */
export function guessLanguage(): Language {
  const read = (storage: () => Storage) => {
    try {
      return storage().getItem(LANGUAGE_CACHE_KEY);
    } catch {
      return null;
    }
  };
  const cookie = document.cookie.split('; ').find((c) => c.startsWith(`${LANGUAGE_COOKIE}=`));
  const tags = [
    new URLSearchParams(location.search).get('lng'),
    cookie && decodeURIComponent(cookie.slice(LANGUAGE_COOKIE.length + 1)),
    read(() => localStorage),
    read(() => sessionStorage),
    ...(navigator.languages ?? []),
    navigator.language,
    document.documentElement.lang,
  ];
  const found = tags
    .map((tag) => tag && toCandidate(tag))
    .find((c) => (LANGUAGES as readonly string[]).includes(c ?? ''));
  return (found as Language | undefined) ?? 'en';
}
