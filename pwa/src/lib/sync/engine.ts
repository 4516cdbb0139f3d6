// The sync engine (docs/sync.md). Writes go to the
// outbox in the same transaction as the local change; a single-flight drain
// (Web Locks) pushes them in order, then pulls what changed and rebases the
// changes still queued on top of it. Triggers: start, `online`, becoming
// visible, a new change, and a backoff timer after failures.
import type { EntityTable } from 'dexie';
import { api, ApiError } from '../api';
import type { LocalDb, LocalRecord, OutboxEntry } from './local-db';
import { PROTOCOL_VERSION, type Mutation, type MutationArgs, type PullResponse, type PushResponse } from './protocol';

/** How a kind of record is kept locally: where it lives and how a queued change alters it. */
export interface EntityHandler {
  table(db: LocalDb): EntityTable<LocalRecord, 'uid'>;
  /** Applies a queued change to the local copy (also used to rebase after a pull). */
  apply(db: LocalDb, mutation: Mutation): Promise<void>;
  /** Sends what a change needs before the change itself (its photos); throws to try later. */
  beforePush?(db: LocalDb, mutation: Mutation): Promise<void>;
  /** Other tables `apply` reads (they join every sync transaction). */
  reads?(db: LocalDb): EntityTable<LocalRecord, 'uid'>[];
}

const handlers = new Map<string, EntityHandler>();

export function registerEntity(entity: string, handler: EntityHandler): void {
  handlers.set(entity, handler);
}

/** The tables a sync transaction touches: the queue, its bookkeeping and every entity's records. */
function syncedTables(db: LocalDb) {
  const tables = [...handlers.values()].flatMap((h) => [h.table(db), ...(h.reads?.(db) ?? [])]);
  return [db.outbox, db.meta, ...new Set(tables)];
}

function handlerFor(name: string): EntityHandler {
  const entity = name.split('.')[0] ?? '';
  const handler = handlers.get(entity);
  if (!handler) throw new Error(`no local handler for ${name}`);
  return handler;
}

function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export { uuid as newUid };

export async function clientId(db: LocalDb): Promise<string> {
  let id = await db.getMeta<string>('client_id');
  if (!id) {
    id = uuid();
    await db.setMeta('client_id', id);
  }
  return id;
}

/**
 * Queues a change and applies it locally, in one transaction. When the
 * record's last queued change is of the same kind and not yet sent, the new
 * fields are folded into it instead (a draft typed letter by letter queues
 * one change, not hundreds).
 */
/** The arguments of mutation `N`, as the server's mutation table declares them. */
export type ArgsOf<N extends MutationArgs['name']> = Extract<MutationArgs, { name: N }>['args'];

export async function enqueue<N extends MutationArgs['name']>(
  db: LocalDb,
  name: N,
  typedArgs: ArgsOf<N>,
  base?: number,
): Promise<void> {
  const args: Record<string, unknown> & { uid: string } = typedArgs;
  const handler = handlerFor(name);
  await db.transaction('rw', syncedTables(db), async () => {
    const pending = await db.outbox.where('uid').equals(args.uid).sortBy('mutation_id');
    const last = pending.at(-1);
    const mutation: Mutation = { mutation_id: 0, name, args, base, client_time: new Date().toISOString() };
    if (last && last.state === 'queued' && !drainOf(db).inFlight.has(last.mutation_id) && foldable(last.name, name)) {
      const merged = mergeArgs(last.args, args);
      await db.outbox.update(last.mutation_id, { args: merged, client_time: mutation.client_time });
    } else {
      const next = (await db.getMeta<number>('next_mutation_id')) ?? 1;
      await db.setMeta('next_mutation_id', next + 1);
      mutation.mutation_id = next;
      await db.outbox.add({ ...mutation, state: 'queued', uid: args.uid });
    }
    // A new change for a record supersedes its refused ones: the person fixed them.
    await db.outbox
      .where('uid')
      .equals(args.uid)
      .and((e) => e.state === 'rejected')
      .delete();
    await handler.apply(db, mutation);
  });
  notify();
  void askToPersist(db);
  void syncSoon(db);
}

/** Once something is queued, ask the browser not to evict our storage. */
async function askToPersist(db: LocalDb): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.storage?.persist || (await db.getMeta('persist_asked'))) return;
  await db.setMeta('persist_asked', true);
  await navigator.storage.persist().catch(() => false);
}

/** An edit folds into an unsent edit or create of the same record; a delete never folds. */
function foldable(queued: string, next: string): boolean {
  const [entity, action] = next.split('.');
  return action === 'update' && (queued === `${entity}.update` || queued === `${entity}.create`);
}

function mergeArgs(older: Record<string, unknown>, newer: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...older, ...newer };
  // Field maps (a survey's `answers`, a product's `fields`) merge key by key.
  for (const key of ['answers', 'fields']) {
    if (older[key] !== undefined || newer[key] !== undefined)
      merged[key] = { ...(older[key] as object | undefined), ...(newer[key] as object | undefined) };
  }
  return merged;
}

// ---- status, for the screens ----

export interface EngineState {
  syncing: boolean;
  lastSyncedAt: number | null;
  /** The last failure of a whole sync (network, server), translated by code. */
  error: string | null;
}

let state: EngineState = { syncing: false, lastSyncedAt: null, error: null };
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function setState(patch: Partial<EngineState>): void {
  state = { ...state, ...patch };
  notify();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function engineState(): EngineState {
  return state;
}

// ---- the drain ----

const BATCH = 50;

/** One account's drain: each database has its own, so a sync asked for by an account
 * signed in while another's runs is that account's, never a re-run of the other's. */
interface Drain {
  running: Promise<void> | null;
  /** Asked for while one ran: a change queued after its push must not wait for the next trigger. */
  again: boolean;
  retryTimer: ReturnType<typeof setTimeout> | null;
  failures: number;
  /** Mutations being pushed right now: they must not be merged into. */
  inFlight: Set<number>;
}

const drains = new WeakMap<LocalDb, Drain>();

function drainOf(db: LocalDb): Drain {
  let drain = drains.get(db);
  if (!drain) {
    drain = { running: null, again: false, retryTimer: null, failures: 0, inFlight: new Set() };
    drains.set(db, drain);
  }
  return drain;
}

/** Runs a sync now unless one is running; another tab holding the lock is enough. */
export function syncNow(db: LocalDb): Promise<void> {
  const drain = drainOf(db);
  if (drain.running) {
    drain.again = true;
    return drain.running;
  }
  const work = async () => {
    setState({ syncing: true });
    try {
      await push(db);
      await pull(db);
      // Answered but unknown to the server now (restored from a backup): sent again.
      if ((await db.outbox.where('state').equals('sent').count()) > 0) {
        await renumber(db);
        await push(db);
        await pull(db);
      }
      drain.failures = 0;
      setState({ syncing: false, lastSyncedAt: Date.now(), error: null });
    } catch (error) {
      drain.failures += 1;
      setState({ syncing: false, error: error instanceof ApiError ? error.code : 'network_error' });
      scheduleRetry(db);
    }
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  drain.running = (
    locks
      ? locks.request(`mavuno-sync-${db.name}`, { ifAvailable: true }, (lock) => (lock ? work() : undefined))
      : work()
  ).finally(() => {
    drain.running = null;
    if (drain.again) {
      drain.again = false;
      void syncNow(db);
    }
  });
  return drain.running;
}

function syncSoon(db: LocalDb): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return Promise.resolve();
  return syncNow(db);
}

/** 5 s, 10 s, 20 s ... up to 5 minutes between tries after failures. */
function scheduleRetry(db: LocalDb): void {
  const drain = drainOf(db);
  if (drain.retryTimer) clearTimeout(drain.retryTimer);
  const delay = Math.min(5_000 * 2 ** (drain.failures - 1), 300_000);
  drain.retryTimer = setTimeout(() => void syncSoon(db), delay);
}

async function push(db: LocalDb): Promise<void> {
  const id = await clientId(db);
  for (;;) {
    const batch = (await db.outbox.where('state').equals('queued').sortBy('mutation_id')).slice(0, BATCH);
    if (batch.length === 0) return;
    const mutations: Mutation[] = batch.map(({ mutation_id, name, args, base, client_time }) => ({
      mutation_id,
      name,
      args,
      base,
      client_time,
    }));
    for (const mutation of mutations) await handlerFor(mutation.name).beforePush?.(db, mutation);
    batch.forEach((m) => drainOf(db).inFlight.add(m.mutation_id));
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
      batch.forEach((m) => drainOf(db).inFlight.delete(m.mutation_id));
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

/** After a gap, number the changes the server does not have on from what it has: the
 * queued ones, and after a server was restored from a backup also those it had
 * answered (kept as `sent` until a pull confirmed them) or refused, sent again. */
async function renumber(db: LocalDb): Promise<void> {
  await db.transaction('rw', db.outbox, db.meta, async () => {
    const last = (await db.getMeta<number>('server_last_mutation_id')) ?? 0;
    const unknown = await db.outbox.where('mutation_id').above(last).sortBy('mutation_id');
    await db.outbox.bulkDelete(unknown.map((e) => e.mutation_id));
    let next = last + 1;
    for (const entry of unknown) {
      const { result: _refusal, ...change } = entry;
      await db.outbox.add({ ...change, state: 'queued', mutation_id: next++ });
    }
    await db.setMeta('next_mutation_id', next);
  });
}

async function pull(db: LocalDb): Promise<void> {
  const id = await clientId(db);
  for (;;) {
    const cursor = await db.getMeta<number>('cursor');
    // A first pull's later pages carry on its snapshot (nothing deleted before it).
    const snapshot = await db.getMeta<number | null>('snapshot');
    const query =
      `client_id=${id}&limit=200${cursor === undefined ? '' : `&cursor=${cursor}`}` +
      (snapshot == null ? '' : `&snapshot=${snapshot}`);
    let page: PullResponse;
    try {
      page = await api<PullResponse>(`/sync/pull?${query}`);
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
    for (const table of syncedTables(db)) if (table !== db.outbox && table !== db.meta) await table.clear();
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
      const handler = handlers.get(change.entity);
      // Entities are registered before the first sync; one this app does not know
      // is newer than the app, and the protocol version guards against that.
      if (!handler) continue;
      touched.add(change.id);
      if (change.op === 'del') await handler.table(db).delete(change.id);
      else await handler.table(db).put({ ...change.record, uid: change.id });
    }
    // Processed by the server: their effects are in what we just stored.
    await db.outbox
      .where('mutation_id')
      .belowOrEqual(page.last_mutation_id)
      .and((e: OutboxEntry) => e.state !== 'rejected')
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

/**
 * While the app is open, shown and online, it listens (`GET /sync/wait`, a long poll
 * the server answers when its sync version differs from ours) and pulls at once: an
 * approval, a new order or a price change shows within seconds. Hidden or offline,
 * it stops asking (no battery or data spent); the usual triggers catch up.
 */
async function listen(db: LocalDb, stopped: AbortSignal): Promise<void> {
  let pause = 2_000;
  while (!stopped.aborted) {
    const cursor = await db.getMeta<number>('cursor');
    if (cursor === undefined || !navigator.onLine || document.visibilityState !== 'visible') {
      await sleep(2_000, stopped);
      continue;
    }
    try {
      const answer = await fetch(`/api/v1/sync/wait?cursor=${cursor}`, { signal: stopped });
      if (!answer.ok) throw new Error(`wait: ${answer.status}`);
      const { version } = (await answer.json()) as { version: number };
      // Behind ours: the server was restored from a backup; the pull starts over.
      if (version !== cursor) await syncNow(db);
      // A pull that did not catch up (it failed, or another tab holds the lock) waits a little.
      const caughtUp = ((await db.getMeta<number>('cursor')) ?? 0) >= version;
      pause = caughtUp ? 2_000 : Math.min(pause * 2, 60_000);
      if (!caughtUp) await sleep(pause, stopped);
    } catch {
      pause = Math.min(pause * 2, 60_000);
      await sleep(pause, stopped);
    }
  }
}

/** Starts syncing for an account: now, when back online, when shown again, and on every server change while open. */
export function startSync(db: LocalDb): () => void {
  const onOnline = () => void syncNow(db);
  const onVisible = () => {
    if (document.visibilityState === 'visible') void syncSoon(db);
  };
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisible);
  void syncSoon(db);
  const listening = new AbortController();
  void listen(db, listening.signal);
  return () => {
    listening.abort();
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
    const { retryTimer } = drainOf(db);
    if (retryTimer) clearTimeout(retryTimer);
  };
}
