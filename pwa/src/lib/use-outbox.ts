import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb, OutboxEntry } from './local-db';

/** The changes waiting on this device, oldest first: for status badges and the queue panel. */
export function useOutbox(db: LocalDb): OutboxEntry[] {
  return useLiveQuery(() => db.outbox.orderBy('mutation_id').toArray(), [db]) ?? [];
}
