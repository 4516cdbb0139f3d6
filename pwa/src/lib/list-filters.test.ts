import { describe, expect, it } from 'vitest';
import { filtersFromUrl } from './list-filters';

const EMPTY = { q: '', category: 'all', sort: 'name' };
const KNOWN = { category: ['grains', 'fruits'], sort: ['name', 'rating'] };

describe('filtersFromUrl', () => {
  it('reads the search, category and sort the first screen linked', () => {
    const params = new URLSearchParams('q=+caf%C3%A9+&category=grains&sort=rating&lng=fr');
    expect(filtersFromUrl(params, EMPTY, KNOWN)).toEqual({ q: 'café', category: 'grains', sort: 'rating' });
  });

  it('keeps the defaults for what the list does not know', () => {
    const params = new URLSearchParams(`category=cars&sort=__proto__&q=${'a'.repeat(300)}`);
    expect(filtersFromUrl(params, EMPTY, KNOWN)).toEqual({ q: 'a'.repeat(100), category: 'all', sort: 'name' });
    expect(filtersFromUrl(new URLSearchParams(), EMPTY, KNOWN)).toEqual(EMPTY);
  });
});
