import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb, OutboxEntry } from './local-db';

/** The changes waiting on this device (queued or refused), oldest first: for status badges
 * and the queue panel. Those the server has answered (`sent`, kept until a pull confirms
 * them) are done as far as the person is concerned. */
export function useOutbox(db: LocalDb): OutboxEntry[] {
  return (
    useLiveQuery(
      () =>
        db.outbox
          .orderBy('mutation_id')
          .filter((e) => e.state !== 'sent')
          .toArray(),
      [db],
    ) ?? []
  );
}

/** How many changes wait on this device to be sent (none without an account's database). */
export function useWaitingCount(db: LocalDb | null): number {
  return useLiveQuery(() => (db ? db.outbox.where('state').equals('queued').count() : 0), [db]) ?? 0;
}

/**
 * Where one change stands, read from the queue (never from `navigator.onLine`, which says
 * "online" on a signal that carries no data): `waiting` until the server answers, `sent`
 * once it has (or a pull has confirmed it and the entry is gone), `refused` when it said no.
 */
export function useChangeState(
  db: LocalDb | null,
  uid: string | null,
  name: string,
): 'waiting' | 'sent' | 'refused' | undefined {
  return useLiveQuery(async () => {
    if (!db || !uid) return undefined;
    const entry = await db.outbox
      .where('uid')
      .equals(uid)
      .filter((e) => e.name === name)
      .first();
    if (!entry || entry.state === 'sent') return 'sent';
    return entry.state === 'rejected' ? 'refused' : 'waiting';
  }, [db, uid, name]);
}
