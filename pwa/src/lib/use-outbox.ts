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
