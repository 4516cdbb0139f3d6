// The sync engine (docs/sync.md): what the app uses of it. Writes go to the outbox
// in the same transaction as the local change (outbox.ts); a single-flight drain per
// account (Web Locks) pushes them in order, then pulls what changed and rebases the
// changes still queued on top of it (transport.ts). Triggers: start, `online`,
// becoming visible, a new change, the server's changes while open, and a backoff
// timer after failures.
import { ApiError } from '../api';
import type { LocalDb } from './local-db';
import { askToPersist, queue, renumber, type ArgsOf } from './outbox';
import type { MutationArgs } from './protocol';
import { notify, setState } from './state';
import { listen, pull, push } from './transport';

export { registerEntity, type EntityHandler } from './entities';
export { argsOf, clientId, forget, newUid, type ArgsOf } from './outbox';
export { engineState, subscribe, type EngineState } from './state';
export { applyPage } from './transport';

/** Queues a change and applies it on the phone at once; it is sent when the network allows. */
export async function enqueue<N extends MutationArgs['name']>(
  db: LocalDb,
  name: N,
  args: ArgsOf<N>,
  base?: number,
): Promise<void> {
  await queue(db, name, args, base, drainOf(db).inFlight);
  notify();
  void askToPersist(db);
  void syncSoon(db);
}

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
      await push(db, drain.inFlight);
      await pull(db);
      // Answered or confirmed but unknown to the server now (restored from a backup or
      // its off-site copy): sent again.
      const last = (await db.getMeta<number>('server_last_mutation_id')) ?? 0;
      const lost = await db.confirmed.where('mutation_id').above(last).count();
      if (lost > 0 || (await db.outbox.where('state').equals('sent').count()) > 0) {
        await renumber(db);
        await push(db, drain.inFlight);
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
  // The server is reached again while the last sync failed (a signal back with no
  // `online` event, the network never having been "off"): what waits goes now, not at the
  // backoff's next try, minutes away after a long time without data.
  void listen(db, listening.signal, syncNow, () => {
    if (drainOf(db).failures > 0) void syncNow(db);
  });
  return () => {
    listening.abort();
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
    const { retryTimer } = drainOf(db);
    if (retryTimer) clearTimeout(retryTimer);
  };
}
