import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { inLanguage, keepSettings, offered, type PublicSettings } from './settings';

const texts = { en: 'Mon–Fri', fr: 'Lun–ven', sw: '' };
const settings: PublicSettings = {
  contact: { address: texts, hours: texts, phone: '', email: '' },
  shipping_policy: texts,
  payments: {
    DRC: { cash_on_delivery: false, operators: ['AIRTEL_COD'] },
    KEN: { cash_on_delivery: true, operators: [] },
  },
};

describe('public settings', () => {
  it("reads a text in the reader's language, English when that one is empty", () => {
    expect(inLanguage(texts, 'fr')).toBe('Lun–ven');
    expect(inLanguage(texts, 'fr-CD')).toBe('Lun–ven');
    expect(inLanguage(texts, 'sw')).toBe('Mon–Fri');
    expect(inLanguage(texts, undefined)).toBe('Mon–Fri');
  });

  it('offers only what the delivery country allows, everything before the first read', () => {
    expect(offered(settings, 'DRC', 'cash_on_delivery')).toBe(false);
    expect(offered(settings, 'DRC', 'mobile_money')).toBe(true);
    expect(offered(settings, 'KEN', 'mobile_money')).toBe(false);
    expect(offered(null, 'KEN', 'mobile_money')).toBe(true);
  });

  it('keeps what was read for the next opening, offline', () => {
    keepSettings(settings);
    expect(JSON.parse(localStorage.getItem('settings')!)).toEqual(settings);
  });

  it("takes a first screen's settings without asking the server, and keeps them", async () => {
    localStorage.clear();
    document.body.innerHTML = `<script type="application/json" id="settings">${JSON.stringify(settings)}</script>`;
    const fetch = vi.spyOn(globalThis, 'fetch');
    vi.resetModules();
    const fresh = await import('./settings');
    const { result } = renderHook(() => [fresh.usePublicSettings(), fresh.useSettingsPending()] as const);
    expect(result.current).toEqual([settings, false]);
    expect(fetch).not.toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem('settings')!)).toEqual(settings);
    document.body.innerHTML = '';
    fetch.mockRestore();
  });
});
