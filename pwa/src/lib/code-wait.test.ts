import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodeStalled, UNWATCHED_MS, useCodeWaiting, waitForCode } from './code-wait';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A loading that settles when the test says. */
function loading<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("a screen's code waited on", () => {
  it('is given up when it has not come in UNWATCHED_MS on a page no service worker controls, and said meanwhile', async () => {
    const { result } = renderHook(() => useCodeWaiting());
    const code = loading<string>();
    const waiting = waitForCode(code.promise);
    const outcome = waiting.then(
      () => 'came',
      (error: unknown) => error,
    );
    await act(() => vi.advanceTimersByTimeAsync(UNWATCHED_MS - 1000));
    expect(result.current).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await outcome).toBeInstanceOf(CodeStalled);
    expect(result.current).toBe(false);
    // Asked for again (React draws the screen again): the same failure, not a new wait.
    expect(waitForCode(code.promise)).toBe(waiting);
  });

  it('is the code once it comes, and no longer said', async () => {
    const { result } = renderHook(() => useCodeWaiting());
    const code = loading<string>();
    const waiting = waitForCode(code.promise);
    expect(waitForCode(code.promise)).toBe(waiting);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(result.current).toBe(true);
    code.resolve('the page');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(await waiting).toBe('the page');
    expect(result.current).toBe(false);
    await vi.advanceTimersByTimeAsync(UNWATCHED_MS);
    expect(await waiting).toBe('the page');
  });

  it('is not given up by a page the service worker controls: the worker gives up what hears nothing', async () => {
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { controller: {} } });
    const code = loading<string>();
    const waiting = waitForCode(code.promise);
    await vi.advanceTimersByTimeAsync(2 * UNWATCHED_MS);
    code.resolve('the page, come slowly');
    expect(await waiting).toBe('the page, come slowly');
    vi.unstubAllGlobals();
  });

  it('passes on a failure as it is (offline: the code is not on this phone)', async () => {
    const missing = new TypeError('Failed to fetch dynamically imported module');
    await expect(waitForCode(Promise.reject(missing))).rejects.toBe(missing);
  });

  it('is not said at another address than the one that asked for it', async () => {
    const { result, rerender } = renderHook(() => useCodeWaiting());
    history.replaceState(null, '', '/dashboard');
    void waitForCode(loading<string>().promise);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current).toBe(true);
    // The person went back home, which was on the phone: the dashboard's code still has not come.
    history.replaceState(null, '', '/');
    rerender();
    expect(result.current).toBe(false);
    await vi.advanceTimersByTimeAsync(UNWATCHED_MS);
  });

  it('returns what React has seen fulfilled as it is, so that `use` reads it at once', () => {
    const words = Object.assign(Promise.resolve(), { status: 'fulfilled' });
    expect(waitForCode(words)).toBe(words);
  });
});
