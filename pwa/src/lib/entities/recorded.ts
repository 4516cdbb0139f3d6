// Records a field worker makes on this phone and keeps in a list of its own (market
// prices, cooperative deliveries): each with where its change stands, and the list kept
// to its newest once sent.
import type { EntityTable, IDType } from 'dexie';
import type { LocalDb, OutboxEntry } from '../sync/local-db';

type Recorded = { uid: string; recorded_at: string };

/** Where a record's change stands: refused (with the server's answer), waiting or sent. */
export type ChangeState = OutboxEntry | 'waiting' | 'sent';

/** The table's records, newest first, each with its change's state. */
export async function withChangeState<T extends Recorded>(
  db: LocalDb,
  table: EntityTable<T, 'uid'>,
): Promise<(T & { change: ChangeState })[]> {
  const rows = await table.toArray();
  const changes = await db.outbox
    .where('uid')
    .anyOf(rows.map((r) => r.uid))
    .toArray();
  return rows
    .map((row) => {
      const mine = changes.filter((c) => c.uid === row.uid);
      const refused = mine.find((c) => c.state === 'rejected');
      const waiting = mine.some((c) => c.state === 'queued');
      return { ...row, change: refused ?? (waiting ? ('waiting' as const) : ('sent' as const)) };
    })
    .sort((a, b) => b.recorded_at.localeCompare(a.recorded_at));
}

/** Drops the oldest sent records past `kept` (those still waiting always stay). */
export async function keepNewest<T extends Recorded>(
  db: LocalDb,
  table: EntityTable<T, 'uid'>,
  kept: number,
): Promise<void> {
  const rows = await table.toArray();
  if (rows.length <= kept) return;
  const waiting = new Set((await db.outbox.toArray()).map((e) => e.uid));
  const old = rows
    .filter((r) => !waiting.has(r.uid))
    .sort((a, b) => String(a.recorded_at).localeCompare(String(b.recorded_at)))
    .slice(0, rows.length - kept)
    .map((r) => r.uid as IDType<T, 'uid'>);
  await table.bulkDelete(old);
}
