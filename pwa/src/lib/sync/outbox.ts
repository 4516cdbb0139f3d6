// The queue of changes made on this phone (docs/sync.md, Push): each change is queued
// with its local effect in one transaction, an unsent edit folds into the one before
// it, and after a gap the changes the server does not have are numbered again.
import type { EntityTable } from 'dexie';
import type { LocalDb, LocalRecord, OutboxEntry } from './local-db';
import { handlerFor, syncedTables } from './entities';
import type { Mutation, MutationArgs } from './protocol';

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

/** The arguments of mutation `N`, as the server's mutation table declares them. */
export type ArgsOf<N extends MutationArgs['name']> = Extract<MutationArgs, { name: N }>['args'];

/** A queued change's arguments as the contract types them, when it is mutation `name`
 * (what `enqueue` queued under that name: the one place they are read back typed). */
export function argsOf<N extends MutationArgs['name']>(mutation: Mutation, name: N): ArgsOf<N> | undefined {
  const found: { args: ArgsOf<N> } | undefined =
    mutation.name === (name as string) ? (mutation as unknown as { args: ArgsOf<N> }) : undefined;
  return found?.args;
}

/**
 * Queues a change and applies it locally, in one transaction. When the record's last
 * queued change is of the same kind and not yet sent (not in `inFlight`), the new
 * fields are folded into it instead (a draft typed letter by letter queues one
 * change, not hundreds).
 */
export async function queue(
  db: LocalDb,
  name: MutationArgs['name'],
  args: Record<string, unknown> & { uid: string },
  base: number | undefined,
  inFlight: ReadonlySet<number>,
): Promise<void> {
  const handler = handlerFor(name);
  await db.transaction('rw', syncedTables(db), async () => {
    const pending = await db.outbox.where('uid').equals(args.uid).sortBy('mutation_id');
    const last = pending.at(-1);
    const mutation: Mutation = { mutation_id: 0, name, args, base, client_time: new Date().toISOString() };
    if (last && last.state === 'queued' && !inFlight.has(last.mutation_id) && foldable(last.name, name)) {
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
}

/** Forgets a record the server never accepted (never sent, or refused) and every change
 * queued for it, in one transaction: nothing is sent about it any more. */
export async function forget(db: LocalDb, table: EntityTable<LocalRecord, 'uid'>, uid: string): Promise<void> {
  await db.transaction('rw', table, db.outbox, async () => {
    await table.delete(uid);
    await db.outbox.where('uid').equals(uid).delete();
  });
}

/** Once something is queued, ask the browser not to evict our storage. */
export async function askToPersist(db: LocalDb): Promise<void> {
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

/** What a change was told: accepted once answered, refused once rejected; a queued one
 * keeps what it was told before an earlier restore, if anything. */
function toldOf(state: OutboxEntry['state'], before: Mutation['told']): Mutation['told'] {
  if (state === 'sent') return 'applied';
  if (state === 'rejected') return 'rejected';
  return before;
}

/** After a gap, number the changes the server does not have on from what it has: the
 * queued ones, and after a server was restored from a backup or its off-site copy also
 * those it had answered (kept as `sent` until a pull confirmed them), confirmed (kept a
 * day) or refused, sent again, each with what it was told the first time (`told`): the
 * server tells the person when the answer now is the other way (docs/sync.md, Push).
 * Each shows on this phone's screens again as waiting (a new snapshot of the restored
 * server had none of them), so an order refused now is there to say so. */
export async function renumber(db: LocalDb): Promise<void> {
  await db.transaction('rw', syncedTables(db), async () => {
    const last = (await db.getMeta<number>('server_last_mutation_id')) ?? 0;
    const lost = await db.confirmed.where('mutation_id').above(last).toArray();
    await db.confirmed.bulkDelete(lost.map((e) => e.mutation_id));
    const waiting = await db.outbox.where('mutation_id').above(last).toArray();
    await db.outbox.bulkDelete(waiting.map((e) => e.mutation_id));
    const unknown = [
      ...lost.map(({ confirmed_at: _confirmed, ...change }) => ({ ...change, told: 'applied' as const })),
      ...waiting.map(({ result: _refusal, state, ...change }) => ({ ...change, told: toldOf(state, change.told) })),
    ].sort((a, b) => a.mutation_id - b.mutation_id);
    let next = last + 1;
    for (const change of unknown) {
      await db.outbox.add({ ...change, state: 'queued', mutation_id: next++ });
      await handlerFor(change.name).apply(db, change);
    }
    await db.setMeta('next_mutation_id', next);
  });
}
