// The marketplace's search, filters and sorts (docs/product.md, Constants), run on the
// device over the local catalogue, so they answer as the person types and
// work with no signal. Plain functions: no React, no database.
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
