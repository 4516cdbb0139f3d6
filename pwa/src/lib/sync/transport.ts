// How the phone talks to the server's sync endpoints (docs/sync.md): push the queue,
// pull pages of changes (rebasing what is still queued on top), and listen for the
// server's changes while the app is open.
import { api, ApiError, getToken } from '../api';
import { entityHandler, handlerFor, syncedTables } from './entities';
import type { LocalDb, OutboxEntry } from './local-db';
import { clientId, renumber } from './outbox';
import { PROTOCOL_VERSION, type Mutation, type PullResponse, type PushResponse } from './protocol';
import { notify } from './state';
import { GUEST_DB, PULL_LIMIT, takeEarlyPull } from './early-pull';

const BATCH = 50;
/** How long a confirmed change is kept (docs/sync.md, Push; docs/operations.md, Off-site copy). */
export const CONFIRMED_KEPT_MS = 24 * 3600 * 1000;

/** Sends the queued changes in order, a batch at a time, until none is left or the server asks to wait. */
export async function push(db: LocalDb, inFlight: Set<number>): Promise<void> {
  const id = await clientId(db);
  for (;;) {
    const batch = (await db.outbox.where('state').equals('queued').sortBy('mutation_id')).slice(0, BATCH);
    if (batch.length === 0) return;
    const mutations: Mutation[] = batch.map(({ mutation_id, name, args, base, client_time, told }) => ({
      mutation_id,
      name,
      args,
      base,
      client_time,
      told,
    }));
    for (const mutation of mutations) await handlerFor(mutation.name).beforePush?.(db, mutation);
    batch.forEach((m) => inFlight.add(m.mutation_id));
    let response: PushResponse;
    try {
      // Gzipped on the way up: a batch of applications is a fifth of its size or less.
      response = await api<PushResponse>('/sync/push', {
        method: 'POST',
        json: { protocol: PROTOCOL_VERSION, client_id: id, mutations },
        gzip: true,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'mutation_gap') {
        await pull(db);
        await renumber(db);
        continue;
      }
      throw error;
    } finally {
      batch.forEach((m) => inFlight.delete(m.mutation_id));
    }
    let retry = false;
    await db.transaction('rw', db.outbox, async () => {
      for (const result of response.results) {
        if (result.status === 'rejected') await db.outbox.update(result.mutation_id, { state: 'rejected', result });
        else if (result.status === 'retry') retry = true;
        // Kept until a pull's last_mutation_id confirms it (a server restored from a
        // backup may not have it any more: it is then sent again).
        else await db.outbox.update(result.mutation_id, { state: 'sent' });
      }
    });
    notify();
    if (retry) return;
  }
}

/** Pulls what changed on the server, page after page. */
export async function pull(db: LocalDb): Promise<void> {
  const id = await clientId(db);
  for (;;) {
    const cursor = await db.getMeta<number>('cursor');
    // A first pull's later pages carry on its snapshot (nothing deleted before it).
    const snapshot = await db.getMeta<number | null>('snapshot');
    const query =
      `client_id=${id}&limit=${PULL_LIMIT}${cursor === undefined ? '' : `&cursor=${cursor}`}` +
      (snapshot == null ? '' : `&snapshot=${snapshot}`);
    // A visitor's first: the page's first script may have asked for it already.
    const early = cursor === undefined && snapshot == null && db.name === GUEST_DB ? await takeEarlyPull() : null;
    let page: PullResponse;
    try {
      page = early ?? (await api<PullResponse>(`/sync/pull?${query}`));
    } catch (error) {
      // Away longer than the server keeps deletions: start again from a new snapshot.
      if (error instanceof ApiError && error.code === 'snapshot_required') {
        await startOver(db);
        continue;
      }
      throw error;
    }
    await applyPage(db, page);
    if (!page.has_more) return;
  }
}

/** Empties this phone's copy for a new snapshot, keeping the queue: the changes still
 * waiting are applied again to the empty tables, so the screens keep showing them. */
async function startOver(db: LocalDb): Promise<void> {
  await db.transaction('rw', syncedTables(db), async () => {
    for (const table of syncedTables(db))
      if (table !== db.outbox && table !== db.confirmed && table !== db.meta) await table.clear();
    for (const entry of await db.outbox.where('state').anyOf('queued', 'sent').sortBy('mutation_id')) {
      await handlerFor(entry.name).apply(db, entry);
    }
    await db.setMeta('cursor', undefined);
    await db.setMeta('snapshot', null);
  });
  notify();
}

/** Applies one page in one transaction, then re-applies the changes still queued. */
export async function applyPage(db: LocalDb, page: PullResponse): Promise<void> {
  await db.transaction('rw', syncedTables(db), async () => {
    const touched = new Set<string>();
    for (const change of page.changes) {
      const handler = entityHandler(change.entity);
      // Entities are registered before the first sync; one this app does not know
      // is newer than the app, and the protocol version guards against that.
      if (!handler) continue;
      touched.add(change.id);
      if (change.op === 'del') await handler.table(db).delete(change.id);
      else await handler.table(db).put({ ...change.record, uid: change.id });
    }
    // Processed by the server: their effects are in what we just stored. Kept a day
    // aside, for a server restored from an off-site copy a few seconds behind.
    const processed = await db.outbox
      .where('mutation_id')
      .belowOrEqual(page.last_mutation_id)
      .and((e: OutboxEntry) => e.state !== 'rejected')
      .toArray();
    const now = Date.now();
    await db.confirmed.bulkPut(
      processed.map(({ mutation_id, name, args, base, client_time, uid }) => ({
        mutation_id,
        name,
        args,
        base,
        client_time,
        uid,
        confirmed_at: now,
      })),
    );
    await db.outbox.bulkDelete(processed.map((e) => e.mutation_id));
    await db.confirmed
      .where('confirmed_at')
      .below(now - CONFIRMED_KEPT_MS)
      .delete();
    for (const entry of await db.outbox.where('state').anyOf('queued', 'sent').sortBy('mutation_id')) {
      if (touched.has(entry.uid)) await handlerFor(entry.name).apply(db, entry);
    }
    await db.setMeta('cursor', page.cursor);
    await db.setMeta('snapshot', page.snapshot ?? null);
    await db.setMeta('server_last_mutation_id', page.last_mutation_id);
    // When this phone last heard from the server, for figures read offline.
    await db.setMeta('pulled_at', new Date().toISOString());
  });
  notify();
}

/** Waits `ms`, or less if `signal` aborts (its listener goes with the wait: the loop below runs for hours). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** A listening socket that has heard nothing for this long is closed (the server speaks every 25 s). */
const SILENCE = 60_000;

/** How a listening socket ended. */
type Heard = 'never-opened' | 'closed' | 'behind';

/** What the server told: the newest version that concerns this phone, and whether it was restored from a backup (behind our cursor). */
interface Told {
  version: number;
  restored: boolean;
}

/** `{"version": N}` (and `"restored": true`) from the server, or undefined for anything else. */
function toldOf(data: unknown): Told | undefined {
  try {
    const { version, restored } = JSON.parse(String(data)) as { version?: unknown; restored?: unknown };
    return typeof version === 'number' ? { version, restored: restored === true } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether what was told calls for a pull: a version that concerns this phone past its
 * cursor, or a server restored from a backup (the pull starts over). The server tells
 * only what concerns the phone (its own changes and the catalogue's: docs/sync.md,
 * Listening), so most changes wake no one.
 */
function callsForPull(told: Told, cursor: number | undefined): boolean {
  return told.restored || told.version > (cursor ?? 0);
}

/**
 * The subprotocols this app offers: `mavuno` (tell only what concerns me), and the
 * token when signed in, so the server knows whose changes concern it (a header cannot
 * be set on a WebSocket, and a query string would put the token in logs).
 */
function listeningProtocols(token: string | null): string[] {
  return token ? ['mavuno', `token.${token}`] : ['mavuno'];
}

/**
 * Listens over one WebSocket (`/sync/listen`): the server tells each new version and
 * the app pulls, until the socket closes or the app is hidden, offline or stopped. A
 * pull that does not catch up (it failed, or another tab holds the lock) closes it
 * too, so that the caller waits before listening again.
 */
function overSocket(
  db: LocalDb,
  cursor: number,
  stopped: AbortSignal,
  syncNow: (db: LocalDb) => Promise<void>,
  reached: () => void,
): Promise<Heard> {
  return new Promise((resolve) => {
    const url = new URL(`/api/v1/sync/listen?cursor=${cursor}`, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url, listeningProtocols(getToken()));
    let opened = false;
    let behind = false;
    let pulls = Promise.resolve();
    const leave = () => socket.close();
    // The server speaks at least every 25 s: a socket silent for a minute died without a word.
    let silence = setTimeout(leave, SILENCE);
    const onHidden = () => {
      if (document.visibilityState !== 'visible') leave();
    };
    socket.onopen = () => {
      opened = true;
      reached();
    };
    socket.onmessage = (event) => {
      clearTimeout(silence);
      silence = setTimeout(leave, SILENCE);
      // "Still here": the server closes a socket that answers nothing for a minute.
      socket.send('1');
      const told = toldOf(event.data);
      pulls = pulls.then(async () => {
        if (told === undefined || behind || !callsForPull(told, await db.getMeta<number>('cursor'))) return;
        await syncNow(db).catch(() => undefined);
        if (((await db.getMeta<number>('cursor')) ?? 0) < told.version) {
          behind = true;
          leave();
        }
      });
    };
    socket.onclose = () => {
      clearTimeout(silence);
      stopped.removeEventListener('abort', leave);
      window.removeEventListener('offline', leave);
      document.removeEventListener('visibilitychange', onHidden);
      void pulls.then(() => resolve(!opened ? 'never-opened' : behind ? 'behind' : 'closed'));
    };
    stopped.addEventListener('abort', leave, { once: true });
    window.addEventListener('offline', leave);
    document.addEventListener('visibilitychange', onHidden);
  });
}

/**
 * While the app is open, shown and online, it listens for the server's changes and
 * pulls at once: an approval, a new order or a price change shows within seconds.
 * It listens over a WebSocket (a few KB of the server's memory a phone, a few bytes
 * each way every 25 s); where one does not open but plain requests get through (some proxies),
 * it holds a long poll instead (`GET /sync/wait`, answered when the server's version
 * differs from ours) for the rest of the session. Hidden or offline, it stops (no
 * battery or data spent); the usual triggers catch up.
 */
export async function listen(
  db: LocalDb,
  stopped: AbortSignal,
  syncNow: (db: LocalDb) => Promise<void>,
  reached: () => void = () => undefined,
): Promise<void> {
  let pause = 2_000;
  // 'probe': the last socket did not open; the next round is a long poll, which tells
  // whether anything gets through ('poll' from then on) or nothing does ('socket' again).
  let way: 'socket' | 'probe' | 'poll' = typeof WebSocket === 'function' ? 'socket' : 'poll';
  while (!stopped.aborted) {
    const cursor = await db.getMeta<number>('cursor');
    if (cursor === undefined || !navigator.onLine || document.visibilityState !== 'visible') {
      await sleep(2_000, stopped);
      continue;
    }
    if (way === 'socket') {
      const heard = await overSocket(db, cursor, stopped, syncNow, reached);
      if (heard === 'never-opened') {
        way = 'probe';
        continue;
      }
      pause = heard === 'behind' ? Math.min(pause * 2, 60_000) : 2_000;
      // Closed by the server (a restart): every phone comes back, spread over a few seconds.
      await sleep(heard === 'behind' ? pause : 1_000 + Math.random() * 2_000, stopped);
      continue;
    }
    try {
      const token = getToken();
      const answer = await fetch(`/api/v1/sync/wait?cursor=${cursor}&scoped=1`, {
        signal: stopped,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      if (!answer.ok) throw new Error(`wait: ${answer.status}`);
      // Plain requests get through where the socket did not open: long polls from now on.
      way = 'poll';
      reached();
      const told = toldOf(await answer.text());
      if (told === undefined) throw new Error('wait: no version');
      if (callsForPull(told, cursor)) await syncNow(db);
      // A pull that did not catch up (it failed, or another tab holds the lock) waits a little.
      const caughtUp = ((await db.getMeta<number>('cursor')) ?? 0) >= told.version;
      pause = caughtUp ? 2_000 : Math.min(pause * 2, 60_000);
      if (!caughtUp) await sleep(pause, stopped);
    } catch {
      // Nothing got through: the socket may, next time.
      if (way === 'probe') way = 'socket';
      pause = Math.min(pause * 2, 60_000);
      await sleep(pause, stopped);
    }
  }
}
