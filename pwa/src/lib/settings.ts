// The platform's public settings (docs/settings.md): contact details and hours (the
// footer, the Contact page), the shipping policy and the payment methods each country
// offers (checkout). The last ones read are kept in local storage, so they show offline
// and at once; they are read again once each time the app opens online.
import { useEffect, useSyncExternalStore } from 'react';
import { api } from './api';

/** A text in the app's three languages. */
export interface Texts {
  en: string;
  fr: string;
  sw: string;
}

export interface CountryPayments {
  cash_on_delivery: boolean;
  /** Mobile-money operators offered; none: no mobile money there. */
  operators: string[];
}

export interface PublicSettings {
  contact: { address: Texts; hours: Texts; phone: string; email: string };
  shipping_policy: Texts;
  payments: Record<string, CountryPayments>;
  /** The phone menu's USSD code (`*384*12#`); empty or absent (kept by an older app): none. */
  ussd_code?: string;
}

const KEY = 'settings';
const listeners = new Set<() => void>();

function read(): PublicSettings | null {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? 'null') as PublicSettings | null;
  } catch {
    return null;
  }
}

/**
 * The settings a first screen was drawn with (`#settings`, server/src/web/first_screen):
 * as fresh as an answer to GET /settings, so a new phone's app need not ask and wait.
 */
function written(): PublicSettings | null {
  try {
    return JSON.parse(document.getElementById('settings')?.textContent ?? 'null') as PublicSettings | null;
  } catch {
    return null;
  }
}

let current: PublicSettings | null = typeof localStorage === 'undefined' ? null : read();
let asked: Promise<void> | null = null;
/** The settings are known, or the first read on this phone has failed: nothing more to wait for. */
let settled = current !== null;
const fresh = typeof document === 'undefined' ? null : written();
if (fresh) {
  keepSettings(fresh);
  // Read with this page: nothing to ask again until the app is next opened.
  asked = Promise.resolve();
}

/** Keeps what the server said and tells every screen showing the settings. */
export function keepSettings(settings: PublicSettings): void {
  current = settings;
  settled = true;
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Storage full: the settings still show until the app closes.
  }
  listeners.forEach((listener) => listener());
}

function refresh(): void {
  asked ??= api<{ data: PublicSettings }>('/settings').then(
    (answer) => keepSettings(answer.data),
    // Offline or refused: what was kept stays, and the next opening asks again.
    () => {
      settled = true;
      listeners.forEach((listener) => listener());
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The settings as last read (null before the first read on this phone). */
export function usePublicSettings(): PublicSettings | null {
  useEffect(refresh, []);
  return useSyncExternalStore(subscribe, () => current);
}

/**
 * Whether a phone that never read the settings is still reading them: the screens that
 * show them say they are busy meanwhile (so the app takes the place of a server's first
 * screen, which has them, only once it has them too: lib/first-screen.ts).
 */
export function useSettingsPending(): boolean {
  return !useSyncExternalStore(subscribe, () => settled);
}

/** A text in the reader's language (English when that one is empty). */
export function inLanguage(texts: Texts, language: string | undefined): string {
  const code = (language ?? 'en').slice(0, 2) as keyof Texts;
  return (texts[code] ?? '').trim() || texts.en;
}

/** Whether `method` may be chosen for a delivery to `country` (all, before the first read). */
export function offered(settings: PublicSettings | null, country: string, method: 'mobile_money' | 'cash_on_delivery') {
  const there = settings?.payments[country];
  if (!there) return true;
  return method === 'cash_on_delivery' ? there.cash_on_delivery : there.operators.length > 0;
}
