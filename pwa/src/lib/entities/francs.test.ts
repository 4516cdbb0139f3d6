import { beforeAll, describe, expect, it, vi } from 'vitest';
import { formatFrancs, inDrc } from './francs';
import { setupI18n } from '../i18n';
import { formatMoney } from '../format';

beforeAll(async () => {
  await setupI18n().loadLanguages(['fr', 'sw']);
});

describe('francs beside dollars', () => {
  it('are for people in the DRC: their account says so, else their phone', () => {
    expect(inDrc('DRC', () => 'Africa/Kigali', ['en'])).toBe(true);
    // The account's country wins over a phone set to Bukavu's time.
    expect(inDrc('RWA', () => 'Africa/Lubumbashi', ['fr-CD'])).toBe(false);
    expect(inDrc(null, () => 'Africa/Lubumbashi', ['en-US'])).toBe(true);
    expect(inDrc(null, () => 'Africa/Kinshasa', [])).toBe(true);
    expect(inDrc(undefined, () => 'Africa/Nairobi', ['sw-CD', 'sw'])).toBe(true);
    expect(inDrc(undefined, () => 'Africa/Nairobi', ['sw-KE', 'en'])).toBe(false);
    // Where the offset cannot be the DRC's, the time zone is not read at all.
    const offset = vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(0);
    const format = vi.spyOn(Intl, 'DateTimeFormat');
    expect(inDrc(null, undefined, ['en-US'])).toBe(false);
    expect(format).not.toHaveBeenCalled();
    offset.mockRestore();
    format.mockRestore();
  });

  it('are whole francs, written as in the DRC', async () => {
    const i18n = setupI18n();
    await i18n.changeLanguage('fr');
    expect(formatFrancs(4275.4).replace(/\s/g, ' ')).toBe('4 275 FC');
    await i18n.changeLanguage('en');
    expect(formatFrancs(128_250.6)).toMatch(/^CDF\s?128,251$/);
  });

  it('group thousands as each language writes its other numbers (one format a language)', async () => {
    const i18n = setupI18n();
    await i18n.changeLanguage('sw');
    // Beside "US$ 1.43" (a decimal dot), never "FC 4.076".
    expect(formatFrancs(4076).replace(/\s/g, ' ')).toBe('FC 4,076');
    expect(formatMoney(1.43).replace(/\s/g, ' ')).toBe('US$ 1.43');
    await i18n.changeLanguage('fr');
    expect(formatMoney(1234.5).replace(/\s/g, ' ')).toBe('1 234,50 $US');
    expect(formatFrancs(4076).replace(/\s/g, ' ')).toBe('4 076 FC');
  });
});
