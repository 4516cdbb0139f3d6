import { useEffect } from 'react';
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

/**
 * Tells `onCount` how many changes wait on this device to be sent, as that changes; draws
 * nothing. A component, for `lazy`: the line atop every screen (components/connection-note.tsx)
 * loads it, and with it the local database's code, only once an account's database is open.
 */
export function WaitingCount({ db, onCount }: { db: LocalDb; onCount(count: number): void }): null {
  const count = useLiveQuery(() => db.outbox.where('state').equals('queued').count(), [db]) ?? 0;
  useEffect(() => onCount(count), [count, onCount]);
  return null;
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
