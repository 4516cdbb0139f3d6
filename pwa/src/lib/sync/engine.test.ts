import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntityTable } from 'dexie';
import { LocalDb, type LocalRecord } from './local-db';
import { applyPage, enqueue, registerEntity, syncNow } from './engine';
import type { Mutation, MutationArgs } from './protocol';

/** The engine is tested with a made-up entity; the real ones are typed by the mutation table. */
const enqueueNote = (db: LocalDb, name: string, args: Record<string, unknown> & { uid: string }, base?: number) =>
  enqueue(db, name as MutationArgs['name'], args as never, base);

// A minimal entity: records whose fields are the mutation's `answers`, kept in a table of the
// local database that the tests use for nothing else.
const notes = (db: LocalDb) => db.surveys as unknown as EntityTable<LocalRecord & Record<string, unknown>, 'uid'>;
registerEntity('note', {
  table: (db) => notes(db),
  async apply(db, mutation: Mutation) {
    const uid = mutation.args.uid as string;
    if (mutation.name === 'note.delete') return void (await notes(db).delete(uid));
    const current = (await notes(db).get(uid)) ?? { uid };
    await notes(db).put({ ...current, ...(mutation.args.answers as object) });
  },
});

let db: LocalDb;
let counter = 0;

beforeEach(() => {
  counter += 1;
  db = new LocalDb(`test-${counter}`);
  vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  db.close();
});

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('outbox', () => {
  it('queues a change and applies it locally in one go, numbering 1, 2, 3', async () => {
    await enqueueNote(db, 'note.create', { uid: 'a', answers: { title: 'Beans' } });
    await enqueueNote(db, 'note.create', { uid: 'b', answers: { title: 'Maize' } });
    const outbox = await db.outbox.toArray();
    expect(outbox.map((e) => [e.mutation_id, e.name, e.uid, e.state])).toEqual([
      [1, 'note.create', 'a', 'queued'],
      [2, 'note.create', 'b', 'queued'],
    ]);
    expect(await notes(db).get('a')).toMatchObject({ title: 'Beans' });
  });

  it('folds edits typed before sending into the queued change', async () => {
    await enqueueNote(db, 'note.create', { uid: 'a', answers: { title: 'B' } });
    await enqueueNote(db, 'note.update', { uid: 'a', answers: { title: 'Be' } });
    await enqueueNote(db, 'note.update', { uid: 'a', answers: { body: 'x' } });
    const outbox = await db.outbox.toArray();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.args).toMatchObject({ answers: { title: 'Be', body: 'x' } });
    await enqueueNote(db, 'note.delete', { uid: 'a' });
    expect(await db.outbox.count()).toBe(2);
  });
});

describe('push and pull', () => {
  it('drops applied and forgotten changes, keeps refused ones with the reason, and keeps everything on a network failure', async () => {
    await enqueueNote(db, 'note.create', { uid: 'a', answers: { title: 'Beans' } });
    await enqueueNote(db, 'note.create', { uid: 'b', answers: {} });
    await enqueueNote(db, 'note.create', { uid: 'c', answers: { title: 'Maize' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    await syncNow(db);
    expect(await db.outbox.count()).toBe(3);

    const fetch = vi.fn(async (url: string) => {
      if (url.includes('/sync/push')) {
        return reply(200, {
          last_mutation_id: 3,
          results: [
            { mutation_id: 1, status: 'applied' },
            { mutation_id: 2, status: 'rejected', code: 'validation_failed', message: 'Title is required' },
            // Processed long ago (a replay past what the server keeps): done, nothing to show.
            { mutation_id: 3, status: 'forgotten', duplicate: true, code: 'result_forgotten' },
          ],
        });
      }
      return reply(200, { cursor: 9, last_mutation_id: 3, changes: [], has_more: false });
    });
    vi.stubGlobal('fetch', fetch);
    await syncNow(db);
    const outbox = await db.outbox.toArray();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ mutation_id: 2, state: 'rejected', result: { code: 'validation_failed' } });
    expect(await db.getMeta('cursor')).toBe(9);
    const body = JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body.mutations.map((m: Mutation) => m.mutation_id)).toEqual([1, 2, 3]);
  });

  it('carries a first pull’s snapshot through its pages, then pulls changes as usual', async () => {
    const pages = [
      { cursor: 5, snapshot: 40, last_mutation_id: 0, changes: [], has_more: true },
      { cursor: 41, last_mutation_id: 0, changes: [], has_more: false },
      { cursor: 42, last_mutation_id: 0, changes: [], has_more: false },
    ];
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url.slice(url.indexOf('?')));
        return reply(200, pages[asked.length - 1]);
      }),
    );
    await syncNow(db);
    await syncNow(db);
    expect(asked.map((q) => [/cursor=(\d+)/.exec(q)?.[1], /snapshot=(\d+)/.exec(q)?.[1]])).toEqual([
      [undefined, undefined],
      ['5', '40'],
      ['41', undefined],
    ]);
  });

  it('takes a new snapshot when its copy is too old, keeping the changes still waiting', async () => {
    await applyPage(db, {
      cursor: 7,
      last_mutation_id: 0,
      has_more: false,
      changes: [
        { entity: 'note', id: 'gone', op: 'put', record: { title: 'Deleted long ago on another phone' } },
        { entity: 'note', id: 'kept', op: 'put', record: { title: 'Beans' } },
      ],
    });
    await enqueueNote(db, 'note.create', { uid: 'mine', answers: { title: 'Written offline' } });
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        // The change waits (a photo not sent yet): it must survive the new snapshot.
        if (url.includes('/sync/push'))
          return reply(200, { last_mutation_id: 0, results: [{ mutation_id: 1, status: 'retry' }] });
        asked.push(url.slice(url.indexOf('?')));
        if (url.includes('cursor=7'))
          return reply(409, { success: false, code: 'snapshot_required', message: 'Too old' });
        return reply(200, {
          cursor: 9,
          last_mutation_id: 0,
          has_more: false,
          changes: [{ entity: 'note', id: 'kept', op: 'put', record: { title: 'Beans' } }],
        });
      }),
    );
    await syncNow(db);
    expect(asked.map((q) => q.includes('cursor='))).toEqual([true, false]);
    expect((await notes(db).toArray()).map((r) => r.uid).sort()).toEqual(['kept', 'mine']);
    expect(await db.outbox.count()).toBe(1);
    expect(await db.getMeta('cursor')).toBe(9);
  });

  it('keeps answered changes until a pull confirms them, and sends them again to a server restored from a backup', async () => {
    await enqueueNote(db, 'note.create', { uid: 'a', answers: { title: 'Beans' } });
    await enqueueNote(db, 'note.create', { uid: 'b', answers: { title: 'Maize' } });
    let serverLast = 0;
    const pushed: number[][] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.includes('/sync/push')) {
          const ids = (JSON.parse(init!.body as string) as { mutations: Mutation[] }).mutations.map(
            (m) => m.mutation_id,
          );
          pushed.push(ids);
          // The first answer comes from a server that is then restored from last night's backup.
          if (pushed.length > 1) serverLast = ids.at(-1)!;
          return reply(200, {
            last_mutation_id: ids.at(-1),
            results: ids.map((id) => ({ mutation_id: id, status: 'applied' })),
          });
        }
        return reply(200, { cursor: 3, last_mutation_id: serverLast, changes: [], has_more: false });
      }),
    );
    await syncNow(db);
    expect(pushed).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps confirmed changes a day and sends again those a server restored from its off-site copy lacks, once', async () => {
    await enqueueNote(db, 'note.create', { uid: 'a', answers: { title: 'Beans' } });
    await enqueueNote(db, 'note.create', { uid: 'b', answers: { title: 'Maize' } });
    await enqueueNote(db, 'note.create', { uid: 'c', answers: { title: 'Cassava' } });
    // The server confirms all three; its off-site copy holds only the first when it is lost.
    let serverLast = 0;
    let restored = false;
    const pushed: Array<Array<[number, string]>> = [];
    const told: Array<Array<Mutation['told']>> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.includes('/sync/push')) {
          const mutations = (JSON.parse(init!.body as string) as { mutations: Mutation[] }).mutations;
          pushed.push(mutations.map((m) => [m.mutation_id, m.args.uid as string]));
          told.push(mutations.map((m) => m.told));
          serverLast = mutations.at(-1)!.mutation_id;
          return reply(200, {
            last_mutation_id: serverLast,
            results: mutations.map((m) => ({ mutation_id: m.mutation_id, status: 'applied' })),
          });
        }
        if (restored) {
          restored = false;
          return reply(409, { code: 'snapshot_required', message: 'restored' });
        }
        return reply(200, { cursor: 3, last_mutation_id: serverLast, changes: [], has_more: false });
      }),
    );
    await syncNow(db);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.confirmed.toArray()).map((e) => e.mutation_id)).toEqual([1, 2, 3]);

    restored = true;
    serverLast = 1;
    await syncNow(db);
    // 'b' and 'c' again, numbered on from what the restored server has; 'a' not twice.
    expect(pushed.at(-1)).toEqual([
      [2, 'b'],
      [3, 'c'],
    ]);
    // Each says what it was told the first time, so the server can tell the person when it ends otherwise.
    expect(told).toEqual([
      [undefined, undefined, undefined],
      ['applied', 'applied'],
    ]);
    expect(await db.outbox.count()).toBe(0);
    // The restored server's snapshot had neither: this phone shows them again, sent again.
    expect((await notes(db).toArray()).map((n) => n.title).sort()).toEqual(['Cassava', 'Maize']);

    // A day later the confirmed changes are let go at the next pull.
    expect(await db.confirmed.count()).toBe(3);
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 24 * 3600 * 1000 + 1);
    await syncNow(db);
    expect(await db.confirmed.count()).toBe(0);
  });

  it('a change queued while a sync runs is sent by one more run, not left for the next trigger', async () => {
    await enqueueNote(db, 'note.create', { uid: 'a', answers: { title: 'Shipped' } });
    const pushed: number[][] = [];
    let release: () => void = () => {};
    const pullHeld = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.includes('/sync/push')) {
          const ids = (JSON.parse(init!.body as string).mutations as Mutation[]).map((m) => m.mutation_id);
          pushed.push(ids);
          return reply(200, {
            last_mutation_id: ids.at(-1),
            results: ids.map((id) => ({ mutation_id: id, status: 'applied' })),
          });
        }
        // The first pull is slow: the person taps again meanwhile.
        if (pushed.length === 1) await pullHeld;
        return reply(200, { cursor: 5, last_mutation_id: pushed.flat().at(-1) ?? 0, changes: [], has_more: false });
      }),
    );
    const first = syncNow(db);
    await vi.waitFor(() => expect(pushed).toHaveLength(1));
    await enqueueNote(db, 'note.create', { uid: 'b', answers: { title: 'Delivered' } });
    void syncNow(db);
    release();
    await first;
    await vi.waitFor(() => expect(pushed).toEqual([[1], [2]]));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
  });

  it('a pull page replaces records, deletes tombstones and rebases queued edits on top', async () => {
    await notes(db).bulkPut([
      { uid: 'a', title: 'old' },
      { uid: 'gone', title: 'x' },
    ]);
    await enqueueNote(db, 'note.update', { uid: 'a', answers: { body: 'typed offline' } });
    await applyPage(db, {
      cursor: 12,
      last_mutation_id: 0,
      has_more: false,
      changes: [
        { entity: 'note', id: 'a', op: 'put', record: { title: 'from server', version: 12 } },
        { entity: 'note', id: 'gone', op: 'del' },
      ],
    });
    expect(await notes(db).get('a')).toMatchObject({ title: 'from server', body: 'typed offline', version: 12 });
    expect(await notes(db).get('gone')).toBeUndefined();
    expect(await db.outbox.count()).toBe(1);
    // Once the server says it has processed the change, it leaves the queue.
    await applyPage(db, { cursor: 13, last_mutation_id: 1, has_more: false, changes: [] });
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('one engine per account', () => {
  it("a sync asked for while another account's runs syncs the new account, not the previous one again", async () => {
    const before = new LocalDb(`test-before-${counter}`);
    await enqueueNote(before, 'note.create', { uid: 'old', answers: { title: 'Before sign-out' } });
    await enqueueNote(db, 'note.create', { uid: 'new', answers: { title: 'After sign-in' } });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pushedBy: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.includes('/sync/push')) {
          const body = JSON.parse(String(init?.body)) as { client_id: string; mutations: Mutation[] };
          pushedBy.push(body.mutations.map((m) => m.args.uid).join());
          if (pushedBy.length === 1) await held;
          return reply(200, {
            last_mutation_id: 1,
            results: [{ mutation_id: 1, status: 'applied' }],
          });
        }
        return reply(200, { cursor: 1, last_mutation_id: 1, changes: [], has_more: false });
      }),
    );
    // The previous account's drain is in the middle of its push when the new account asks.
    const first = syncNow(before);
    await vi.waitFor(() => expect(pushedBy).toEqual(['old']));
    const second = syncNow(db);
    release();
    await Promise.all([first, second]);
    await vi.waitFor(() => expect(pushedBy).toEqual(['old', 'new']));
    expect(await db.outbox.where('state').equals('queued').count()).toBe(0);
    before.close();
  });
});
