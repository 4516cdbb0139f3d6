// The code (or words) a screen waits on before it can be drawn: a page opened for the first
// time on this phone, the signed-in screens' words after a first sign-in, a dashboard
// section. Navigations are transitions (app/router.tsx), so the screen before stays while
// it comes; on a signal that carries no data it stayed for ever, with the address already
// changed and nothing said (a first sign-in left the person on the filled form). Waited on
// here, it is said after a few seconds (components/connection-note.tsx). The service worker
// gives up a file that hears nothing for SILENCE_MS (pwa/silent-files.ts),
// and the page's error boundary then says it did not come, with "Try again"; a page the
// worker does not control gives up itself, later (UNWATCHED_MS).
import { lazy, useSyncExternalStore } from 'react';
import { SILENCE_MS } from './silence';

/** A screen's code that has not come in UNWATCHED_MS. */
export class CodeStalled extends Error {
  constructor() {
    super('The code of this screen did not come');
    this.name = 'CodeStalled';
  }
}

/** What the screens wait on, as handed out (one waiting per loading). */
const waits = new WeakMap<Promise<unknown>, Promise<unknown>>();
/** Those not settled yet, each with the address it was asked for at. */
const pending = new Map<Promise<unknown>, string>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/**
 * How long a page the service worker does not control (a first visit's first page) waits
 * for a file before it gives it up: it cannot tell a silent link from a slow one, so long
 * enough for a file that comes slowly with the app's install over GPRS (~150 KB at 2 KB/s).
 */
export const UNWATCHED_MS = 3 * SILENCE_MS;

/**
 * `loading`; on a page the service worker does not control, CodeStalled when it has not
 * settled in UNWATCHED_MS (the worker gives up what hears nothing: its failure comes as
 * the browser's).
 */
export function givenUpIfUnwatched<T>(loading: Promise<T>): Promise<T> {
  if (navigator.serviceWorker?.controller) return loading;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CodeStalled()), UNWATCHED_MS);
    loading.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/**
 * `loading` (an import, or words), as a screen waits on it: the same promise for the same
 * `loading`, as React's `lazy` and `use` need (`givenUpIfUnwatched`). One already
 * fulfilled (marked by React) is returned as it is.
 */
export function waitForCode<T>(loading: Promise<T>): Promise<T> {
  if ((loading as { status?: string }).status === 'fulfilled') return loading;
  let waiting = waits.get(loading) as Promise<T> | undefined;
  if (!waiting) {
    const wait = givenUpIfUnwatched(loading);
    waits.set(loading, (waiting = wait));
    pending.set(wait, location.pathname);
    // Said in a later task: a screen asks for its code while React draws it.
    setTimeout(changed);
    const settled = () => {
      pending.delete(wait);
      changed();
    };
    wait.then(settled, settled);
  }
  return waiting;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the screen at this address waits on code that has not come (not one left since). */
export function useCodeWaiting(): boolean {
  return useSyncExternalStore(subscribe, () => [...pending.values()].includes(location.pathname));
}

/** React's `lazy`, for a screen's code that is waited on (`waitForCode`). */
export const lazyCode: typeof lazy = (load) => lazy(() => waitForCode(load()));
