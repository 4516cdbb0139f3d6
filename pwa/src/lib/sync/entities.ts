// The kinds of record the sync engine keeps (docs/sync.md): each registers how it is
// kept on the phone and how a queued change alters it (lib/sync/bootstrap.ts).
import type { EntityTable } from 'dexie';
import type { LocalDb, LocalRecord } from './local-db';
import type { Mutation } from './protocol';

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

/** The handler of an entity the server names; none for one this app does not know. */
export function entityHandler(entity: string): EntityHandler | undefined {
  return handlers.get(entity);
}

/** The tables a sync transaction touches: the queue, its bookkeeping and every entity's records. */
export function syncedTables(db: LocalDb) {
  const tables = [...handlers.values()].flatMap((h) => [h.table(db), ...(h.reads?.(db) ?? [])]);
  return [db.outbox, db.confirmed, db.meta, ...new Set(tables)];
}

/** The handler of a mutation (`product.update` → `product`). */
export function handlerFor(name: string): EntityHandler {
  const entity = name.split('.')[0] ?? '';
  const handler = handlers.get(entity);
  if (!handler) throw new Error(`no local handler for ${name}`);
  return handler;
}
