import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initOptions, languageDetector, toSupportedLanguage } from './i18n';
import { guessLanguage } from './languages';
import { STORE_DAYS, WEEKDAYS, weekDays } from './format';

describe('toSupportedLanguage', () => {
  it.each([
    ['fr', 'fr'],
    ['fr-FR', 'fr'],
    ['fr-CA', 'fr'],
    ['sw', 'sw'],
    ['sw-KE', 'sw'],
    ['sw_TZ', 'sw'],
    ['sw-CD', 'sw'],
    ['en-CD', 'fr'],
    ['ln-CD', 'fr'],
    ['rn-BI', 'fr'],
    ['nl-BE', 'fr'],
    ['br-FR', 'fr'],
    ['rw-RW', 'en'],
    ['en-US', 'en'],
    ['de', 'en'],
    ['', 'en'],
    [null, 'en'],
  ])('%s → %s', (tag, expected) => {
    expect(toSupportedLanguage(tag)).toBe(expected);
  });
});

/**
 * The language a fresh i18next with the app's options and detector chooses; the page's
 * first script asks for the words of the same guess (`guessLanguage`) before i18next runs.
 */
async function detect(): Promise<string> {
  const guessed = guessLanguage();
  const instance = i18next.createInstance();
  await instance.use(languageDetector).init(initOptions());
  expect(guessed, 'the first script guessed another language').toBe(instance.language);
  return instance.language;
}

function browserLanguages(...languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0]!);
}

describe('language detection (query, cookie, localStorage, sessionStorage, navigator, html tag)', () => {
  afterEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    document.cookie = 'mavuno_lng=; path=/; max-age=0';
    window.history.replaceState({}, '', '/');
    document.documentElement.lang = '';
    vi.restoreAllMocks();
  });

  it('the query wins over the stored choice, and is then stored', async () => {
    localStorage.setItem('i18nextLng', 'fr');
    window.history.replaceState({}, '', '/?lng=sw');
    expect(await detect()).toBe('sw');
    expect(localStorage.getItem('i18nextLng')).toBe('sw');
    // And in the cookie the server reads for the first HTML it sends.
    expect(document.cookie).toContain('mavuno_lng=sw');
  });

  it('the stored choice wins over the browser language', async () => {
    localStorage.setItem('i18nextLng', 'sw');
    browserLanguages('fr-FR');
    expect(await detect()).toBe('sw');
  });

  it('a browser set up for DR Congo gets French', async () => {
    browserLanguages('en-CD');
    expect(await detect()).toBe('fr');
  });

  it('an unsupported first browser language gives way to a supported later one', async () => {
    browserLanguages('de-DE', 'sw-TZ');
    expect(await detect()).toBe('sw');
  });

  it('the cookie (a choice made on another visit) wins over the browser language', async () => {
    document.cookie = 'mavuno_lng=fr; path=/';
    browserLanguages('sw-KE');
    expect(await detect()).toBe('fr');
  });

  it("a session's choice wins over the browser language", async () => {
    sessionStorage.setItem('i18nextLng', 'fr');
    browserLanguages('en-US');
    expect(await detect()).toBe('fr');
  });

  it("the page's language (written by the server) when the browser offers none of ours", async () => {
    browserLanguages('de-DE');
    document.documentElement.lang = 'sw';
    expect(await detect()).toBe('sw');
  });

  it('anything else falls back to English', async () => {
    browserLanguages('de-DE', 'rw-RW');
    expect(await detect()).toBe('en');
  });
});

const words = async (language: string) => {
  const instance = i18next.createInstance();
  const resources = (await import(`../locales/${language}.json`)) as { default: object };
  await instance.init({
    ...initOptions(),
    lng: language,
    resources: { [language]: { translation: resources.default } },
  });
  return instance;
};

describe('days of the week in words', () => {
  it('as a range, a list or every day, as the server writes them (labels.rs)', async () => {
    const [en, fr, sw] = await Promise.all(['en', 'fr', 'sw'].map(words));
    expect(weekDays(STORE_DAYS, en!.t)).toBe('Monday to Saturday');
    expect(weekDays(STORE_DAYS, fr!.t)).toBe('du lundi au samedi');
    expect(weekDays(STORE_DAYS, sw!.t)).toBe('Jumatatu hadi Jumamosi');
    expect(weekDays(['fri', 'wed', 'mon'], en!.t)).toBe('Monday, Wednesday and Friday');
    expect(weekDays(['mon', 'tue', 'thu'], en!.t)).toBe('Monday, Tuesday and Thursday');
    expect(weekDays(['tue', 'wed'], fr!.t)).toBe('mardi et mercredi');
    expect(weekDays(['sat'], sw!.t)).toBe('Jumamosi');
    expect(weekDays(WEEKDAYS, en!.t)).toBe('every day');
  });
});

describe('numbers in words', () => {
  it('weights, fees and percentages are written as each language writes numbers', async () => {
    const [en, fr, sw] = await Promise.all(['en', 'fr', 'sw'].map(words));
    expect(fr!.t('cooperative.today', { count: 2, kilograms: 1235.5 })).toBe(
      "Aujourd'hui : 2 livraisons, 1\u202f235,5 kg.",
    );
    expect(en!.t('cooperative.today', { count: 2, kilograms: 1235.5 })).toBe('Today: 2 deliveries, 1,235.5 kg.');
    expect(fr!.t('admin.cooperatives.fee_value', { fee: 2.5 })).toBe('frais 2,5 %');
    // A weight the server sends as text ("35.50") too.
    expect(fr!.t('cooperative.lots.stock_left', { kilograms: '35.50' })).toBe('Hors lot : 35,5 kg.');
    expect(sw!.t('cooperative.lots.stock_sold', { kilograms: 1235.5 })).toBe('Imeuzwa: kilo 1,235.5.');
  });
});
