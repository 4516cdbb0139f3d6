import { describe, expect, it } from 'vitest';
import { productDescription, productTitle, type Product } from './products';
import { orderRange } from './catalogue';
import { filterProducts } from './product-search';
import vocabulary from './produce-words.json';

const product = (
  title: string,
  category: string,
  price: number,
  rating: number,
  farmer = 'Amani Bahati',
  status = 'active',
) =>
  ({
    uid: title,
    id: 1,
    title,
    description: `${title} from Kivu`,
    category,
    current_price: price,
    rating,
    reviews: 1,
    status,
    farmer: { name: farmer },
  }) as unknown as Product;

const all = [
  product('Café arabica', 'beverages', 10.5, 4.9, 'Esther Nabintu'),
  product('Mangoes', 'fruits', 0.6, 4.8),
  product('Avocados', 'fruits', 0.4, 4.7),
  product('Hidden', 'fruits', 1, 5, 'X', 'inactive'),
];
const titles = (list: Product[]) => list.map((p) => p.title);

describe('the marketplace filters', () => {
  it('searches names, descriptions and farmers without caring for case or accents', () => {
    expect(titles(filterProducts(all, { q: 'CAFE', category: 'all', sort: 'name' }))).toEqual(['Café arabica']);
    expect(titles(filterProducts(all, { q: 'nabintu kivu', category: 'all', sort: 'name' }))).toEqual(['Café arabica']);
  });

  it('filters by category, sorts, and never shows what is off sale', () => {
    expect(titles(filterProducts(all, { q: '', category: 'fruits', sort: 'price_asc' }))).toEqual([
      'Avocados',
      'Mangoes',
    ]);
    expect(titles(filterProducts(all, { q: '', category: 'all', sort: 'rating' }))).toEqual([
      'Café arabica',
      'Mangoes',
      'Avocados',
    ]);
    expect(titles(filterProducts(all, { q: '', category: 'all', sort: 'price_desc' }))[0]).toBe('Café arabica');
  });

  it('orders between the minimum order and the stock', () => {
    expect(orderRange({ min_order: 0.5, max_order: 20, quantity: 80 })).toEqual([1, 20]);
    expect(orderRange({ min_order: 5, max_order: null, quantity: 8 })).toEqual([5, 8]);
    expect(orderRange({ min_order: 5, max_order: 100, quantity: 3 })).toEqual([5, 3]);
  });
});

describe('the search in the region’s three languages', () => {
  it('finds every product of the vocabulary, listed in English, from each of its names, offline', () => {
    const listed = vocabulary.groups.map((group) => product(`Fresh ${group[0]} from Kabare`, 'vegetables', 1, 4));
    for (const group of vocabulary.groups)
      for (const name of group) {
        const found = titles(filterProducts(listed, { q: name.replace(/^=/, ''), category: 'all', sort: 'name' }));
        expect(found, `${name} finds ${group[0]}`).toContain(`Fresh ${group[0]} from Kabare`);
      }
    expect(titles(filterProducts(listed, { q: 'Café', category: 'all', sort: 'name' }))).toEqual([
      'Fresh coffee from Kabare',
    ]);
  });
  it('does not find a name inside another produce’s name, as the server does', () => {
    const listed = [
      product('Arabica coffee beans', 'beverages', 10, 4),
      product('Green beans', 'vegetables', 2, 4),
      product('Soybeans', 'grains', 1, 4),
      product('Viande de boeuf', 'dairy', 8, 4),
      product('Oeufs frais', 'dairy', 3, 4),
    ];
    const search = (q: string) => titles(filterProducts(listed, { q, category: 'all', sort: 'name' }));
    expect(search('haricot')).toEqual(['Green beans']);
    expect(search('beans')).toEqual(['Green beans']);
    expect(search('kahawa')).toEqual(['Arabica coffee beans']);
    expect(search('Arabica coffee beans'), 'its own name').toEqual(['Arabica coffee beans']);
    expect(search('soya')).toEqual(['Soybeans']);
    expect(search('mayai')).toEqual(['Oeufs frais']);
    expect(search('bea'), 'a part of a word').toEqual(['Arabica coffee beans', 'Green beans', 'Soybeans']);
  });
  it('finds a product by its category in any of the three languages, as the server does', () => {
    const search = (q: string) => titles(filterProducts(all, { q, category: 'all', sort: 'name' }));
    for (const words of ['fruits', 'Matunda', 'tunda']) expect(search(words)).toEqual(['Avocados', 'Mangoes']);
    expect(search('boissons')).toEqual(['Café arabica']);
    expect(search('vinywaji kivu')).toEqual(['Café arabica']);
    expect(Object.keys(vocabulary.categories)).toEqual([
      'vegetables',
      'fruits',
      'grains',
      'dairy',
      'beverages',
      'herbs',
    ]);
  });
});

describe('a product named in other languages by its farmer', () => {
  const honey = { ...product('Grevillea honey', 'honey', 6, 4.5), title_sw: 'Asali ya mgrevilia', title_fr: null };

  it('is shown under the name in the reader’s language, or the farmer’s own name', () => {
    expect(productTitle(honey, 'sw')).toBe('Asali ya mgrevilia');
    expect(productTitle(honey, 'sw-TZ')).toBe('Asali ya mgrevilia');
    expect(productTitle(honey, 'fr')).toBe('Grevillea honey');
    expect(productTitle(honey, undefined)).toBe('Grevillea honey');
  });

  it('is found offline by any of its names', () => {
    expect(titles(filterProducts([honey, ...all], { q: 'mgrevilia', category: 'all', sort: 'name' }))).toEqual([
      'Grevillea honey',
    ]);
  });
});

describe('a product described in other languages by its farmer', () => {
  const beans = {
    ...product('Red beans', 'grains', 2, 4),
    description: 'Dried in the sun.',
    description_fr: 'Séchés au soleil, triés à la main.',
    description_sw: null,
  };

  it('is described in the reader’s language, or in the farmer’s own words', () => {
    expect(productDescription(beans, 'fr-CD')).toBe('Séchés au soleil, triés à la main.');
    expect(productDescription(beans, 'sw')).toBe('Dried in the sun.');
    expect(productDescription(beans, 'en')).toBe('Dried in the sun.');
  });

  it('is found offline by the words of any of its descriptions', () => {
    expect(titles(filterProducts([beans, ...all], { q: 'tries a la main', category: 'all', sort: 'name' }))).toEqual([
      'Red beans',
    ]);
  });
});
