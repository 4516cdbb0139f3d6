// The marketplace's search, filters and sorts (docs/product.md, Constants), run on the
// device over the local catalogue, so they answer as the person types and
// work with no signal.
import { useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from './local-db';
import { engineState, subscribe } from './sync-engine';
import { useOnline } from './use-online';
import type { Category, Product } from './products';

export type Sort = 'name' | 'price_asc' | 'price_desc' | 'rating';
export const SORTS: readonly Sort[] = ['name', 'price_asc', 'price_desc', 'rating'];

export interface CatalogueFilters {
  q: string;
  category: Category | 'all';
  sort: Sort;
}

/** Lower case without accents: "cafe" finds "Café". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Products on sale that match, in the chosen order. */
export function filterProducts(products: Product[], filters: CatalogueFilters): Product[] {
  const words = fold(filters.q).split(/\s+/).filter(Boolean);
  const matches = products.filter((p) => {
    if (p.status !== 'active') return false;
    if (filters.category !== 'all' && p.category !== filters.category) return false;
    const text = fold(`${p.title} ${p.description} ${p.farmer?.name ?? ''}`);
    return words.every((w) => text.includes(w));
  });
  const byName = (a: Product, b: Product) => a.title.localeCompare(b.title);
  const order: Record<Sort, (a: Product, b: Product) => number> = {
    name: byName,
    price_asc: (a, b) => a.current_price - b.current_price || byName(a, b),
    price_desc: (a, b) => b.current_price - a.current_price || byName(a, b),
    rating: (a, b) => b.rating - a.rating || b.reviews - a.reviews || byName(a, b),
  };
  return matches.sort(order[filters.sort]);
}

/** The products on sale on this device; `undefined` while loading. */
export function useCatalogue(db: LocalDb | null): Product[] | undefined {
  return useLiveQuery(
    async () =>
      db
        ? ((await db.products.toArray()) as Product[]).filter((p) => p.status === 'active' && p.id !== undefined)
        : undefined,
    [db],
  );
}

/** One product by its server id (the `/product/:id` address). */
export function useProduct(db: LocalDb | null, id: number): Product | null | undefined {
  return useLiveQuery(
    async () =>
      db ? (((await db.products.where('id').equals(id).first()) as Product | undefined) ?? null) : undefined,
    [db, id],
  );
}

/**
 * Whether this device has pulled the catalogue at least once: `undefined` while
 * finding out, and while a first pull is on its way (online, no sync failed), so a
 * first visit says "loading" rather than "not downloaded"; `false` only offline or
 * after a failed first pull.
 */
export function useCatalogueLoaded(db: LocalDb | null): boolean | undefined {
  const pulled = useLiveQuery(async () => (db ? (await db.getMeta<number>('cursor')) !== undefined : undefined), [db]);
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
