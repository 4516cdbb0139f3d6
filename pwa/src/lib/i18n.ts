// i18next, choosing the language in the spec's order (query, cookie, localStorage,
// sessionStorage, navigator, html tag) mapped onto our three languages: the same
// guess the page's first script makes (lib/languages.ts, `guessLanguage`), so that
// the words it asked for are the ones used. Each language is a chunk of its own,
// loaded when it is the reader's (and then kept by the service worker): a French
// reader's phone never downloads the English words, and a visitor's never the words
// of the signed-in screens (`signedInWords`). No fallback language is needed: every
// catalogue has every key (locales/catalogues.test.ts).
import i18n, { type BackendModule, type InitOptions, type LanguageDetectorModule, type ResourceKey } from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import {
  LANGUAGES,
  LANGUAGE_CACHE_KEY,
  LANGUAGE_COOKIE,
  LANGUAGE_NAMES,
  guessLanguage,
  toSupportedLanguage,
  type Language,
} from './languages';
import { wordsFile } from './app-files';
import { givenUpIfUnwatched } from './code-wait';

export { LANGUAGES, LANGUAGE_NAMES, toSupportedLanguage, type Language };

/** Each language's words, a file of their own; the signed-in screens' words, another. */
type Part = 'public' | 'signed';
const loaders: Record<Part, Record<Language, () => Promise<{ default: ResourceKey }>>> = {
  public: {
    en: () => import('../locales/en.json'),
    fr: () => import('../locales/fr.json'),
    sw: () => import('../locales/sw.json'),
  },
  signed: {
    en: () => import('virtual:signed-in-words/en'),
    fr: () => import('virtual:signed-in-words/fr'),
    sw: () => import('virtual:signed-in-words/sw'),
  },
};

/**
 * A file of words, asked for again at another address once it failed: the browser keeps a
 * failed import's failure for its address (the module map; Chromium 148 asks the network
 * nothing more), so the same import would fail forever once the network is back. One that
 * hears nothing is given up as failed (lib/code-wait.ts): over a link that carries
 * nothing, a language chosen was otherwise never shown nor said to be missing.
 */
const failedWords = new Set<string>();
let wordsTries = 0;
function loadPart(language: Language, part: Part): Promise<ResourceKey> {
  const file = failedWords.has(`${part}:${language}`) ? wordsFile(language, part) : null;
  const load = file
    ? () => import(/* @vite-ignore */ `/assets/${file}.js?try=${++wordsTries}`) as Promise<{ default: ResourceKey }>
    : loaders[part][language];
  return givenUpIfUnwatched(load()).then(
    (module) => module.default,
    (error: unknown) => {
      failedWords.add(`${part}:${language}`);
      throw error;
    },
  );
}

/** Someone is signed in on this phone: each language comes with the signed-in screens' words. */
let signedIn = false;
const signedWords = new Map<Language, Promise<ResourceKey>>();
function signedWordsOf(language: Language): Promise<ResourceKey> {
  let words = signedWords.get(language);
  if (!words) {
    words = loadPart(language, 'signed');
    words.catch(() => signedWords.delete(language));
    signedWords.set(language, words);
  }
  return words;
}

/** A language's words, with the signed-in screens' once someone is signed in. */
async function loadWords(language: Language): Promise<ResourceKey> {
  const [words, signed] = await Promise.all([loadPart(language, 'public'), signedIn ? signedWordsOf(language) : null]);
  return signed ? { ...(words as object), ...(signed as object) } : words;
}

const added = new Map<Language, Promise<void>>();
/**
 * The signed-in screens' words in the reader's language, added once: a visitor's phone
 * never downloads them (vite.config.ts, SIGNED_IN_WORDS). The guarded pages wait for them
 * (RequireAuth); warmScreens asks for them at sign-in, so that they are on the phone offline.
 * A try that failed stands for the pages that wait (they say so, and "Try again" loads the
 * app anew: a page drawn again must not begin another try, or it would wait again instead
 * of saying it); `again` tries anew after a failure (a sign-in begun or done).
 */
export function signedInWords(again = false): Promise<void> {
  signedIn = true;
  return addSignedInWords(again);
}

const failedLanguages = new Set<Language>();
/** The signed-in screens' words in the reader's language, for someone about to sign in. */
export function addSignedInWords(again = false): Promise<void> {
  const language = currentLanguage();
  let ready = added.get(language);
  if (!ready || (again && failedLanguages.has(language))) {
    failedLanguages.delete(language);
    const loading = signedWordsOf(language).then((words) => {
      i18n.addResourceBundle(language, 'translation', words, true, true);
      // Read at once by React's `use` once here (RequireAuth), as React marks a promise
      // it has waited for: the guarded page is drawn without a moment of spinner.
      Object.assign(loading, { status: 'fulfilled', value: undefined });
    });
    loading.catch(() => added.get(language) === loading && failedLanguages.add(language));
    added.set(language, (ready = loading));
  }
  return ready;
}

/** A language asked for while its words are not on the phone (offline, never chosen
 * before): the page is shown in another language the phone has, and says so
 * (`useMissingLanguage`); the words are fetched again once the network is back. */
let missing: Language | null = null;
const missingListeners = new Set<() => void>();
function setMissing(language: Language | null): void {
  missing = language;
  missingListeners.forEach((listener) => listener());
}

export function useMissingLanguage(): Language | null {
  return useSyncExternalStore(
    (listener) => {
      missingListeners.add(listener);
      return () => missingListeners.delete(listener);
    },
    () => missing,
  );
}

/** The language the person chose last, from a picker. */
let chosen: Language | null = null;

/** A chosen language's words still coming after this are said to be missing meanwhile. */
const SLOW_WORDS_MS = 3000;

/** A language's words are asked for again this long after they failed while online. */
const RETRY_ONLINE_MS = 5000;

/**
 * Asks for `language`'s words again once the network may carry them: at the next
 * `online` event, or in a few seconds when the phone says it is online already. A try
 * that fails again comes back here (the read that failed calls this), so words that
 * fail right as the network returns (the `online` event comes before data gets
 * through) are asked for again instead of never.
 */
function whenBack(language: Language): void {
  const attempt = () => {
    // The person chose another language meanwhile: theirs stands, nothing is asked again.
    if (i18n.language !== language) return;
    void i18n.reloadResources(language).then(() => {
      if (missing === language) return;
      document.documentElement.lang = language;
      void i18n.changeLanguage(language);
    });
  };
  if (navigator.onLine) setTimeout(attempt, RETRY_ONLINE_MS);
  else window.addEventListener('online', attempt, { once: true });
}

const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!(LANGUAGES as readonly string[]).includes(language)) return callback(null, {});
    // A language chosen whose words are slow to come is said to be missing meanwhile (the
    // page stays in the one before), not only once they are given up.
    const slow =
      chosen === language && i18n.language !== language
        ? setTimeout(() => chosen === language && setMissing(language), SLOW_WORDS_MS)
        : undefined;
    loadWords(language as Language).then(
      (words) => {
        clearTimeout(slow);
        if (missing === language) setMissing(null);
        callback(null, words);
      },
      async (error: Error) => {
        clearTimeout(slow);
        // The last language used here first: its words are on the phone.
        const stored = toSupportedLanguage(localStorage.getItem(LANGUAGE_CACHE_KEY));
        for (const other of [stored, ...LANGUAGES].filter((l) => l !== language)) {
          const words = await loadWords(other).catch(() => null);
          if (!words) continue;
          // Not for a language the person has left meanwhile (its words given up late).
          if (chosen === null || chosen === language) {
            setMissing(language as Language);
            document.documentElement.lang = other;
            whenBack(language as Language);
          }
          return callback(null, words);
        }
        callback(error, null);
      },
    );
  },
};

/** How long the chosen language is kept in the cookie the server reads. */
const COOKIE_SECONDS = 60 * 60 * 24 * 365;

/**
 * Chooses the reader's language as the page's first script guessed it, and keeps each
 * choice in local storage and in the cookie that tells the server the language of the
 * first HTML it sends (its first screen, shell and title). In place of
 * i18next-browser-languagedetector, which did the same in ~1.9 KB more of every first
 * visit's code and had to be held to the first script's guess by a test.
 */
export const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect: guessLanguage,
  cacheUserLanguage(language) {
    try {
      localStorage.setItem(LANGUAGE_CACHE_KEY, language);
    } catch {
      // Without storage the cookie still keeps it.
    }
    document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; path=/; max-age=${COOKIE_SECONDS}; samesite=lax`;
  },
};

export function initOptions(): InitOptions {
  return {
    supportedLngs: [...LANGUAGES],
    // English for a reader whose languages are none of ours; none for our readers (English
    // would be downloaded beside French or Kiswahili for nothing).
    fallbackLng: (code: string) => ((LANGUAGES as readonly string[]).includes(code) ? [] : ['en']),
    load: 'languageOnly',
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
    // A key with no words would be drawn as itself ("earnings.kind_share"): said on the
    // console, where the browser tests look for it after every file (e2e/harness.mjs).
    parseMissingKeyHandler: (key: string, defaultValue?: string) => {
      if (defaultValue === undefined) console.error(`${MISSING_WORDS}${key}`);
      return defaultValue ?? key;
    },
  };
}

/** What the console says before a key that has no words in the language shown. */
const MISSING_WORDS = 'i18n: no words for ';

/** Languages left while their words were missing: i18next holds another language's words for them. */
const standIns = new Set<Language>();

/** The person's choice of language, from a picker. */
export async function chooseLanguage(language: Language): Promise<void> {
  chosen = language;
  if (standIns.delete(language)) await i18n.reloadResources(language);
  await i18n.changeLanguage(language);
}

export function setupI18n(): typeof i18n {
  if (i18n.isInitialized) return i18n;
  i18n.on('languageChanged', (language) => {
    if (missing && missing !== language) {
      // The person left the language whose words are missing: another language's words
      // stand in for them, so choosing it again asks the network again (chooseLanguage).
      standIns.add(missing);
      setMissing(null);
    }
    if (missing !== language) document.documentElement.lang = language;
  });
  wordsLoaded = i18n
    .use(lazyCatalogues)
    .use(languageDetector)
    .use(initReactI18next)
    .init(initOptions())
    .then(
      () => undefined,
      () => undefined,
    );
  return i18n;
}

let wordsLoaded: Promise<void> = Promise.resolve();
/** Resolves once the reader's words have come (or failed to): the app's first render waits for it (boot.tsx). */
export function wordsReady(): Promise<void> {
  return wordsLoaded;
}

export function currentLanguage(): Language {
  return toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language);
}
