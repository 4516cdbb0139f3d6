import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb } from '../../lib/local-db';
import { registerEntity } from '../../lib/sync-engine';
import { validateProduct } from './products-section';
import { productEntity, saveProduct, type Product } from './local';

registerEntity('product', productEntity);
afterEach(() => vi.unstubAllGlobals());

describe('the farmer product form', () => {
  it('checks the spec rules in order', () => {
    const problems = validateProduct({
      title: ' ',
      description: '',
      quantity: '1.5',
      price: '2.505',
      current_price: '-1',
      harvest_date: '',
      expiry_date: '',
    });
    expect(Object.entries(problems)).toEqual([
      ['title', 'required'],
      ['description', 'required'],
      ['quantity', 'quantity_invalid'],
      ['price', 'price_invalid'],
      ['current_price', 'price_invalid'],
    ]);
    expect(
      validateProduct({
        title: 'a',
        description: 'b',
        quantity: '1',
        price: '0',
        current_price: '2.5',
        harvest_date: '2026-11-02',
        expiry_date: '2026-11-01',
      }),
    ).toEqual({ expiry_date: 'expiry_before_harvest' });
  });

  it('sends a stock change as an increment and only the fields that changed', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('products-test');
    const server = {
      uid: 'p1',
      id: 5,
      version: 12,
      title: 'Tomatoes',
      description: 'Ripe',
      category: 'vegetables',
      unit: 'kg',
      quantity: 50,
      price: 3,
      current_price: 2.5,
      status: 'active',
      images: [],
      certifications: [],
      tags: [],
      harvest_date: null,
      expiry_date: null,
      min_order: 1,
      max_order: null,
      shipping: { available: true, cost: 5, estimated_days: null },
      farmer: { id: 3, name: 'A', location: null, rating: 0, verified: true },
    } as unknown as Product;
    await db.products.put(server);
    const { fieldsOf } = await import('./local');
    await saveProduct(db, 'p1', { ...fieldsOf(server), current_price: 2 }, 65, 3);
    const outbox = await db.outbox.orderBy('mutation_id').toArray();
    expect(outbox.map((e) => [e.name, e.args, e.base])).toEqual([
      ['product.update', { uid: 'p1', fields: { current_price: 2 } }, 12],
      ['product.adjust_stock', { uid: 'p1', delta: 15 }, 12],
    ]);
    expect(await db.products.get('p1')).toMatchObject({ current_price: 2, quantity: 65 });
    db.close();
  });
});
