// The local catalogue as the marketplace reads it (its search and sorts are in
// product-search.ts): the products on sale on this device, one by id, whether it
// has been downloaded, and how much of a product may be ordered.
import { useDeferredValue, useMemo, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from '../sync/local-db';
import { engineState, subscribe } from '../sync/engine';
import { useOnline } from '../use-online';
import type { Product } from './products';

export async function onSale(db: LocalDb): Promise<Product[]> {
  return (await db.products.toArray()).filter((p) => p.status === 'active' && p.id !== undefined);
}

/** The products on sale on this device; `undefined` while loading. */
export function useCatalogue(db: LocalDb | null): Product[] | undefined {
  return useLiveQuery(async () => (db ? onSale(db) : undefined), [db]);
}

/**
 * A synced list (`read`: a function of the module, not made anew each render) and whether
 * this device ever pulled, read together, so a page never draws one without the other
 * (no "nothing found" between a first pull's end and its records). A change is drawn as
 * a transition: in slices, so a slow phone still answers taps while a page of cards is
 * drawn.
 */
export function useSyncedList<T>(
  db: LocalDb | null,
  read: (db: LocalDb) => Promise<T[]>,
): { items: T[] | undefined; loaded: boolean | undefined } {
  const snapshot = useLiveQuery(
    async () =>
      db ? { items: await read(db), pulled: (await db.getMeta<number>('cursor')) !== undefined } : undefined,
    [db, read],
  );
  const loaded = useLoaded(snapshot?.pulled);
  const state = useMemo(() => ({ items: snapshot?.items, loaded: snapshot ? loaded : undefined }), [snapshot, loaded]);
  return useDeferredValue(state);
}

/**
 * One synced record (`read`: by the deps given) and whether this device ever pulled, read
 * together: `undefined` while reading, and while a first pull is on its way (a shared link
 * opened on a new phone says "loading", not "not found"); null when this device has not
 * got it. Its arrival is drawn as a transition (in slices): a whole page's body at once is
 * a long task on a slow phone.
 */
export function useSyncedRecord<T>(
  db: LocalDb | null,
  read: (db: LocalDb) => Promise<T | undefined>,
  deps: unknown[],
): T | null | undefined {
  const snapshot = useLiveQuery(
    async () =>
      db ? { item: (await read(db)) ?? null, pulled: (await db.getMeta<number>('cursor')) !== undefined } : undefined,
    // `read` is made anew each render: `deps` are what it reads by.
    [db, ...deps],
  );
  const loaded = useLoaded(snapshot?.pulled);
  const item = snapshot && (snapshot.item ?? (loaded === undefined ? undefined : null));
  return useDeferredValue(item);
}

/** One product by its server id (the `/product/:id` address), as `useSyncedRecord` reads it. */
export function useProduct(db: LocalDb | null, id: number): Product | null | undefined {
  return useSyncedRecord(db, (db) => db.products.where('id').equals(id).first(), [id]);
}

function useLoaded(pulled: boolean | undefined): boolean | undefined {
  const online = useOnline();
  const engine = useSyncExternalStore(subscribe, engineState);
  if (pulled !== false) return pulled;
  return online && !engine.error ? undefined : false;
}

/** The quantities a buyer may order: from the minimum order to the stock (and the maximum order). */
export function orderRange(p: Pick<Product, 'min_order' | 'max_order' | 'quantity'>): [number, number] {
  const low = Math.max(1, Math.ceil(p.min_order));
  const high = Math.min(p.quantity, p.max_order === null ? p.quantity : Math.floor(p.max_order));
  return [low, high];
}
