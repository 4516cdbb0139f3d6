// Favourite products: on the device for a visitor; for a signed-in person,
// synced (`favourite.set`) so they follow them to another phone.
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import type { LocalDb } from '../sync/local-db';
import type { Product } from './products';
import { enqueue, type EntityHandler } from '../sync/engine';

const KEY = 'mavuno.favourites';

export const favouriteEntity: EntityHandler = {
  table: (db) => db.favourites,
  async apply(db, mutation) {
    const uid = mutation.args.uid as string;
    if (mutation.args.on)
      await db.favourites.put({ uid, created_at: mutation.client_time ?? new Date().toISOString() });
    else await db.favourites.delete(uid);
  },
};

function readLocal(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

/** A visitor's favourites join the account when they sign in. */
export async function adoptLocalFavourites(db: LocalDb): Promise<void> {
  const local = readLocal();
  if (local.size === 0) return;
  for (const uid of local) {
    if (!(await db.favourites.get(uid))) await enqueue(db, 'favourite.set', { uid, on: true });
  }
  localStorage.removeItem(KEY);
}

/** Whether a product is a favourite, and the toggle. `account` is the signed-in person's database. */
export function useFavourite(account: LocalDb | null, uid: string): [boolean, () => void] {
  const synced = useLiveQuery(
    async () => (account ? (await account.favourites.get(uid)) !== undefined : undefined),
    [account, uid],
  );
  const [local, setLocal] = useState(() => readLocal().has(uid));
  if (account) {
    return [synced === true, () => void enqueue(account, 'favourite.set', { uid, on: synced !== true })];
  }
  const toggle = () => {
    const all = readLocal();
    if (all.has(uid)) all.delete(uid);
    else all.add(uid);
    localStorage.setItem(KEY, JSON.stringify([...all]));
    setLocal(all.has(uid));
  };
  return [local, toggle];
}

/** A favourite, with the product as this phone has it now (`null` once it is no longer on sale). */
export interface Favourite {
  uid: string;
  product: Product | null;
}

/** The person's favourites, newest first, each with its product from the catalogue on the phone. */
export function useFavouriteProducts(db: LocalDb | null): Favourite[] | undefined {
  return useLiveQuery(async () => {
    if (!db) return undefined;
    const marks = await db.favourites.toArray();
    marks.sort((a, b) => b.created_at.localeCompare(a.created_at));
    const products = await db.products.bulkGet(marks.map((m) => m.uid));
    return marks.map((mark, i) => {
      const product = products[i];
      return { uid: mark.uid, product: product && product.status === 'active' && product.id ? product : null };
    });
  }, [db]);
}

/** Takes a product off the person's favourites (synced). */
export function removeFavourite(db: LocalDb, uid: string): Promise<void> {
  return enqueue(db, 'favourite.set', { uid, on: false });
}
