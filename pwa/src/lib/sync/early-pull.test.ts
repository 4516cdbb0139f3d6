import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb, localDb } from './local-db';
import { GUEST_DB, pullEarly, takeEarlyPull } from './early-pull';
import { pull } from './transport';
import { setToken } from '../api';

const page = (cursor: number) => ({ cursor, last_mutation_id: 0, changes: [], has_more: false });

/** The requests the phone made, by their path and query. */
function serve(): string[] {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(page(asked.length === 1 ? 5 : 9)), { status: 200 });
    }),
  );
  return asked;
}

const opened: LocalDb[] = [];
const open = (name: string) => {
  const db = new LocalDb(name);
  opened.push(db);
  return db;
};

afterEach(async () => {
  await takeEarlyPull();
  vi.unstubAllGlobals();
  localStorage.clear();
  for (const db of opened.splice(0)) await db.delete();
});

describe('a visitor’s first pull, asked for by the page’s first script', () => {
  it('is the one the sync’s first pull takes: the catalogue is asked for once, and the next pull goes on from it', async () => {
    const asked = serve();
    pullEarly();
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    // The database the app opens for a visitor (sync/provider.tsx) is the one this pull is for.
    expect(localDb('guest').name).toBe(GUEST_DB);
    const guest = open(GUEST_DB);
    await pull(guest);
    expect(await guest.getMeta('cursor')).toBe(5);
    await pull(guest);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toBe('/api/v1/sync/pull?limit=200');
    expect(asked[1]).toMatch(/client_id=[\w-]+&limit=200&cursor=5$/);
  });

  it('is never an account’s pull, nor asked for with someone signed in or a visitor’s database already there', async () => {
    const asked = serve();
    pullEarly();
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    const account = open('mavuno-7');
    await pull(account);
    expect(asked[1]).toMatch(/client_id=[\w-]+&limit=200$/);
    expect(await account.getMeta('cursor')).toBe(9);
    await takeEarlyPull();

    const settled = () => new Promise((resolve) => setTimeout(resolve, 50));
    setToken('a-token');
    pullEarly();
    await settled();
    expect(await takeEarlyPull()).toBeNull();
    localStorage.clear();
    await open(GUEST_DB).open();
    pullEarly();
    await settled();
    expect(await takeEarlyPull()).toBeNull();
    expect(asked).toHaveLength(2);
  });
});
