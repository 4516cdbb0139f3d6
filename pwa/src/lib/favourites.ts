// Favourite products: on the device for a visitor; for a signed-in person,
// synced (`favourite.set`) so they follow them to another phone.
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import type { LocalDb } from './local-db';
import { enqueue, type EntityHandler } from './sync-engine';

const KEY = 'mavuno.favourites';

export const favouriteEntity: EntityHandler = {
  table: (db) => db.favourites,
  async apply(db, mutation) {
    const uid = mutation.args.uid as string;
    if (mutation.args.on) await db.favourites.put({ uid, created_at: mutation.client_time });
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
