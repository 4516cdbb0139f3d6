import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, fetchFile, SILENCE_MS } from './api';

/** A server whose answer comes as the test says: its head when `answer` is called, then each chunk when `send` is. */
function server() {
  let answer!: () => void;
  let stream!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream = controller;
    },
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          // As a browser does: the abort fails the request, or its body if it has begun.
          init.signal?.addEventListener('abort', () => {
            const error = new DOMException('The operation was aborted.', 'AbortError');
            reject(error);
            stream.error(error);
          });
          answer = () => resolve(new Response(body, { status: 200 }));
        }),
    ),
  );
  const text = new TextEncoder();
  return {
    answer: () => answer(),
    send: (part: string) => stream.enqueue(text.encode(part)),
    end: () => stream.close(),
  };
}

/** `request` (made once the server is there) fails as a network error when its answer stops mid-way for SILENCE_MS. */
async function expectGivenUpMidWay(request: () => Promise<unknown>) {
  const stalled = server();
  const cut = follow(request());
  stalled.answer();
  stalled.send('{"orders":');
  await vi.advanceTimersByTimeAsync(SILENCE_MS);
  expect((cut.error as ApiError).code).toBe('network_error');
}

/** Where the request stands: its value, its error, or still waiting. */
function follow<T>(request: Promise<T>) {
  const state: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  request.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error: unknown) => Object.assign(state, { error, settled: true }),
  );
  return state;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a request on a signal that carries no data', () => {
  it('is given up as a network error when its answer has not begun after SILENCE_MS', async () => {
    server();
    const request = follow(api('/orders'));
    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1000);
    expect(request.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(request.error).toBeInstanceOf(ApiError);
    expect((request.error as ApiError).code).toBe('network_error');
  });

  it('is given up when its answer stops coming, and not while it keeps coming, however slowly', async () => {
    const slow = server();
    const request = follow(api<{ orders: number[] }>('/orders'));
    slow.answer();
    for (const part of ['{"orders"', ':[1,', '2,3]}']) {
      await vi.advanceTimersByTimeAsync(SILENCE_MS - 5000);
      slow.send(part);
    }
    slow.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(request.value).toEqual({ orders: [1, 2, 3] });

    await expectGivenUpMidWay(() => api('/orders'));
  });

  it('waits longer for the answer to a request that sends a body (a photo on a slow uplink)', async () => {
    const upload = server();
    const form = new FormData();
    form.append('picture', new Blob([new Uint8Array(200_000)]), 'photo.jpg');
    const request = follow(api<{ ok: boolean }>('/me/avatar', { method: 'POST', form }));
    await vi.advanceTimersByTimeAsync(SILENCE_MS + 90_000);
    expect(request.settled).toBe(false);
    upload.answer();
    upload.send('{"ok":true}');
    upload.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(request.value).toEqual({ ok: true });
  });

  it('gives up a file the app keeps (a course picture) as it gives up the API', async () => {
    await expectGivenUpMidWay(() => fetchFile('/media/lesson.jpg'));

    const whole = server();
    const kept = follow(fetchFile('/media/lesson.jpg'));
    whole.answer();
    whole.send('JPEG');
    whole.end();
    await vi.advanceTimersByTimeAsync(0);
    const response = kept.value as Response;
    expect(response.ok).toBe(true);
    expect(await response.text()).toBe('JPEG');
  });
});
