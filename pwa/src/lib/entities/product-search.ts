// The marketplace's search, filters and sorts (docs/product.md, Constants), run on the
// device over the local catalogue, so they answer as the person types and
// work with no signal. Plain functions: no React, no database.
import type { Category, Product } from './products';
import vocabulary from './produce-words.json';

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

const GROUPS: string[][] = vocabulary.groups;
const CATEGORY_WORDS: Record<string, string[]> = vocabulary.categories;
const PHRASES = GROUPS.flat()
  .filter((term) => term.includes(' '))
  .sort((a, b) => b.length - a.length);

/** What to look for for one folded word: every name of the products it names in the
 * region's three languages (it or its plural is one of a group's words; `=` words only
 * start a search), or else the word itself. As the server does (model/produce_words.rs). */
export function equivalents(word: string): string[] {
  const names = (term: string) => {
    const t = term.replace(/^=/, '');
    return word === t || word === `${t}s` || word === `${t}es`;
  };
  const found = new Set<string>();
  for (const group of GROUPS.filter((g) => g.some(names)))
    for (const term of group) if (!term.startsWith('=')) found.add(term);
  return found.size > 0 ? [...found] : [word];
}

/** The names of other produce that contain `name` ("coffee bean" and "soybean" for "bean"):
 * a listing holding one of them is not found by `name`. As the server does. */
export function insideOtherNames(name: string): string[] {
  let others = INSIDE.get(name);
  if (!others) {
    const found = new Set<string>();
    const names = (g: string[]) => g.some((term) => term.replace(/^=/, '') === name);
    // A word that names no produce ("mato", a part of a word) is looked for everywhere.
    if (GROUPS.some(names)) {
      for (const group of GROUPS.filter((g) => !names(g)))
        for (const term of group) if (!term.startsWith('=') && term !== name && term.includes(name)) found.add(term);
    }
    others = [...found];
    INSIDE.set(name, others);
  }
  return others;
}
const INSIDE = new Map<string, string[]>();

/** `name` in `text`, not inside another produce's name unless that one is asked for too
 * ("arabica coffee beans" finds the coffee). */
const found = (text: string, name: string, asked: Set<string>) =>
  text.includes(name) && !insideOtherNames(name).some((other) => !asked.has(other) && text.includes(other));

/** A search, word by word, each with what to look for; "pomme de terre" is one word. */
export function searchWords(query: string): string[][] {
  let rest = ` ${fold(query).split(/\s+/).filter(Boolean).join(' ')} `;
  const words: string[][] = [];
  for (const phrase of PHRASES) {
    const name = phrase.replace(/^=/, '');
    while (rest.includes(` ${name} `)) {
      words.push(equivalents(name));
      rest = rest.replace(` ${name} `, ' ');
    }
  }
  return [...words, ...rest.split(' ').filter(Boolean).map(equivalents)];
}

/** Products on sale that match, in the chosen order. */
export function filterProducts(products: Product[], filters: CatalogueFilters): Product[] {
  const words = searchWords(filters.q);
  const asked = new Set(words.flat());
  const matches = products.filter((p) => {
    if (p.status !== 'active') return false;
    if (filters.category !== 'all' && p.category !== filters.category) return false;
    // The category's words too: "légumes" finds the vegetables, as on the server.
    const category = (CATEGORY_WORDS[p.category] ?? []).join(' ');
    const names = [p.title, p.title_en, p.title_fr, p.title_sw].filter(Boolean).join(' ');
    const described = [p.description, p.description_en, p.description_fr, p.description_sw].filter(Boolean).join(' ');
    const text = fold(`${names} ${described} ${p.farmer?.name ?? ''} ${category}`);
    return words.every((names) => names.some((name) => found(text, name, asked)));
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
