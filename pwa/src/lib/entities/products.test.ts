import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb } from '../sync/local-db';
import { registerEntity } from '../sync/engine';
import { productEntity, saveProduct, type Product } from './products';

registerEntity('product', productEntity);
afterEach(() => vi.unstubAllGlobals());

describe('products on the device', () => {
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
    const { fieldsOf } = await import('./products');
    await saveProduct(db, 'p1', { ...fieldsOf(server), current_price: 2 }, 65, 3);
    const outbox = await db.outbox.orderBy('mutation_id').toArray();
    expect(outbox.map((e) => [e.name, e.args, e.base])).toEqual([
      ['product.update', { uid: 'p1', fields: { current_price: 2 } }, 12],
      ['product.adjust_stock', { uid: 'p1', delta: 15 }, 12],
    ]);
    expect(await db.products.get('p1')).toMatchObject({ current_price: 2, quantity: 65 });
    db.close();
  });

  it("keeps a listing made offline in the server's shape, and reads one saved flat by an older app", async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('products-shape-test');
    const { fieldsOf } = await import('./products');
    const typed = {
      title: 'Cassava',
      category: 'grains' as const,
      unit: 'kg' as const,
      price: 0.4,
      current_price: 0.4,
      shipping_available: false,
      shipping_cost: 0,
      shipping_days: null,
    };
    await saveProduct(db, 'p3', typed, 30, 3);
    const made = (await db.products.get('p3'))!;
    expect(made).toMatchObject({ title: 'Cassava', quantity: 30, shipping: { available: false, cost: 0 } });
    expect(made).not.toHaveProperty('shipping_available');
    expect(made.farmer.id).toBe(3);
    expect(fieldsOf(made)).toMatchObject({ shipping_available: false, shipping_cost: 0, shipping_days: null });

    // Saved by an older version of the app, not sent yet: shipping as three flat fields.
    await db.products.put({ uid: 'p4', title: 'Maize', quantity: 5, shipping_cost: '8.00' } as unknown as Product);
    await productEntity.apply(db, {
      mutation_id: 9,
      name: 'product.update',
      args: { uid: 'p4', fields: { shipping_days: '2' } },
    });
    expect(await db.products.get('p4')).toMatchObject({ shipping: { available: true, cost: 5, estimated_days: '2' } });
    db.close();
  });

  it('sends a cleared date or maximum blank, so the server clears it, and keeps null on the phone', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('products-clear-test');
    const server = {
      uid: 'p2',
      id: 6,
      version: 20,
      title: 'Beans',
      description: 'Dry',
      quantity: 10,
      price: 1,
      current_price: 1,
      harvest_date: '2026-11-01',
      max_order: 5,
    } as unknown as Product;
    await db.products.put(server);
    const { fieldsOf } = await import('./products');
    await saveProduct(db, 'p2', { ...fieldsOf(server), harvest_date: null, max_order: null }, 10, 3);
    const [entry] = await db.outbox.toArray();
    expect(entry!.args).toEqual({ uid: 'p2', fields: { harvest_date: '', max_order: '' } });
    expect(await db.products.get('p2')).toMatchObject({ harvest_date: null, max_order: null });
    db.close();
  });
});
