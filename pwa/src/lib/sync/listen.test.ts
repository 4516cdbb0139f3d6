import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalDb } from './local-db';
import { listen } from './transport';

/** A WebSocket that opens (or fails to) on the next turn, records what the app sends, and is told versions by the test. */
class FakeSocket {
  static made: FakeSocket[] = [];
  static opens = true;
  onopen?: () => void;
  onmessage?: (event: { data: unknown }) => void;
  onclose?: () => void;
  sent: string[] = [];
  closed = false;

  constructor(
    readonly url: URL,
    readonly protocols?: string[],
  ) {
    FakeSocket.made.push(this);
    setTimeout(() => (FakeSocket.opens ? this.onopen?.() : this.close()), 0);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    setTimeout(() => this.onclose?.(), 0);
  }
  tell(version: number, restored = false) {
    this.onmessage?.({ data: JSON.stringify(restored ? { version, restored } : { version }) });
  }
}

let cursor: number;
let server: number;
const db = { getMeta: async () => cursor } as unknown as LocalDb;
// A pull brings the phone to the server's version.
const syncNow = vi.fn(async () => {
  cursor = server;
});
let stop: AbortController;
const last = () => FakeSocket.made.at(-1)!;
const turn = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
  FakeSocket.made = [];
  FakeSocket.opens = true;
  cursor = server = 5;
  syncNow.mockClear();
  stop = new AbortController();
});

afterEach(async () => {
  stop.abort();
  await turn(100);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('listening for changes while the app is open', () => {
  it('listens over a WebSocket and pulls each new version it is told, answering every message', async () => {
    void listen(db, stop.signal, syncNow);
    await turn();
    expect(FakeSocket.made).toHaveLength(1);
    expect(last().url.protocol).toBe('ws:');
    expect(`${last().url.pathname}${last().url.search}`).toBe('/api/v1/sync/listen?cursor=5');
    // Signed out: the catalogue's changes only (docs/sync.md, Listening).
    expect(last().protocols).toEqual(['mavuno']);

    server = 7;
    last().tell(7);
    await turn();
    expect(syncNow).toHaveBeenCalledTimes(1);
    expect(cursor).toBe(7);
    // A heartbeat (the version unchanged) pulls nothing; each message is answered.
    last().tell(7);
    await turn();
    expect(syncNow).toHaveBeenCalledTimes(1);
    expect(last().sent).toEqual(['1', '1']);
    expect(FakeSocket.made).toHaveLength(1);

    stop.abort();
    await turn();
    expect(last().closed).toBe(true);
  });

  it('says whose changes concern it, and pulls only for a version past its cursor or a restored server', async () => {
    localStorage.setItem('token', 'eyJ.abc.def');
    void listen(db, stop.signal, syncNow);
    await turn();
    expect(last().protocols).toEqual(['mavuno', 'token.eyJ.abc.def']);
    // The server told 3 earlier; the phone has pulled to 5 since: its heartbeat pulls nothing.
    last().tell(3);
    await turn();
    expect(syncNow).not.toHaveBeenCalled();
    // Behind the cursor because the server was restored from a backup: the pull starts over.
    server = 4;
    last().tell(4, true);
    await turn();
    expect(syncNow).toHaveBeenCalledTimes(1);
    localStorage.removeItem('token');
  });

  it('goes on with long polls when a socket does not open but plain requests get through', async () => {
    FakeSocket.opens = false;
    const waits: string[] = [];
    localStorage.setItem('token', 'eyJ.abc.def');
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        waits.push(url);
        expect(init.headers).toEqual({ Authorization: 'Bearer eyJ.abc.def' });
        // The server holds a long poll 25 s when nothing changes.
        return new Promise((resolve) => setTimeout(() => resolve(new Response('{"version":5}')), 25_000));
      }),
    );
    void listen(db, stop.signal, syncNow);
    await turn(10);
    expect(FakeSocket.made).toHaveLength(1);
    expect(waits).toEqual(['/api/v1/sync/wait?cursor=5&scoped=1']);
    await turn(25_000 * 3);
    expect(waits.length).toBe(4);
    expect(FakeSocket.made).toHaveLength(1);
    expect(syncNow).not.toHaveBeenCalled();
    localStorage.removeItem('token');
  });

  it('tries the socket again when nothing got through at all', async () => {
    FakeSocket.opens = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    void listen(db, stop.signal, syncNow);
    await turn();
    expect(FakeSocket.made).toHaveLength(1);
    // The failed poll backs off (4 s), then the socket is tried again.
    await turn(4_100);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it('closes a socket silent for a minute and opens another', async () => {
    void listen(db, stop.signal, syncNow);
    await turn();
    await turn(59_000);
    expect(last().closed).toBe(false);
    await turn(2_000);
    expect(FakeSocket.made[0]?.closed).toBe(true);
    await turn(3_000);
    expect(FakeSocket.made).toHaveLength(2);
    expect(last().closed).toBe(false);
  });

  it('closes the socket when the phone goes offline, and stops listening while it is', async () => {
    void listen(db, stop.signal, syncNow);
    await turn();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    await turn(10_000);
    expect(FakeSocket.made).toHaveLength(1);
    expect(last().closed).toBe(true);
    online.mockRestore();
    await turn(5_000);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it('closes the socket and waits when a pull does not catch up', async () => {
    syncNow.mockImplementation(async () => undefined);
    void listen(db, stop.signal, syncNow);
    await turn();
    server = 9;
    last().tell(9);
    await turn();
    expect(syncNow).toHaveBeenCalledTimes(1);
    expect(last().closed).toBe(true);
    // Not at once: after 4 s (then 8, 16 ... up to a minute).
    await turn(3_500);
    expect(FakeSocket.made).toHaveLength(1);
    await turn(1_000);
    expect(FakeSocket.made).toHaveLength(2);
  });
});
