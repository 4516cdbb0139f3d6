import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb } from '../sync/local-db';
import { changePart, orderEntity, orderStatus, placeOrder } from './orders';
import { productEntity, type Product } from './products';
import { registerEntity } from '../sync/engine';

registerEntity('order', orderEntity);
registerEntity('product', productEntity);
afterEach(() => vi.unstubAllGlobals());

const product = (id: number, farmer: number, price: number, shipping: number) =>
  ({
    uid: `p${id}`,
    id,
    title: `Product ${id}`,
    unit: 'kg',
    quantity: 10,
    current_price: price,
    farmer: { id: farmer, name: `Farmer ${farmer}`, location: 'Kabare', rating: 0, verified: true },
    shipping: { available: true, cost: shipping, estimated_days: null },
  }) as unknown as Product;

const item = (p: Product, quantity: number) =>
  ({
    item: {
      id: p.id,
      quantity,
      price: p.current_price,
      product: { id: p.id, farmer: { id: p.farmer.id } },
    },
    price: p.current_price,
  }) as never;

describe('orders on the device', () => {
  it('an order is as far as its slowest live part', () => {
    expect(orderStatus([{ status: 'shipped' }, { status: 'delivered' }])).toBe('shipped');
    expect(orderStatus([{ status: 'cancelled' }, { status: 'delivered' }])).toBe('delivered');
    expect(orderStatus([{ status: 'cancelled' }])).toBe('cancelled');
  });

  it('an order placed offline shows at once, split per farmer at the cart prices, and moves when a part does', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('orders-test');
    const tomatoes = product(1, 7, 2.5, 5);
    const beans = product(2, 7, 1.2, 2);
    const mangoes = product(3, 8, 0.6, 3);
    await db.products.bulkPut([tomatoes, beans, mangoes]);
    const shipping = {
      first_name: 'Neema',
      last_name: 'Bahati',
      email: 'n@example.com',
      phone: '+243990000001',
      address: 'Avenue Lumumba 12',
      city: 'Bukavu',
      postal_code: '',
      country: 'DRC',
    };
    const uid = await placeOrder(
      db,
      [item(tomatoes, 2), item(beans, 1), item(mangoes, 3)],
      shipping,
      'delivery',
      'cash_on_delivery',
    );
    const [queued] = await db.outbox.toArray();
    expect(queued!.args).toMatchObject({
      uid,
      lines: [
        { product_id: 1, quantity: 2, unit_price_cents: 250 },
        { product_id: 2, quantity: 1, unit_price_cents: 120 },
        { product_id: 3, quantity: 3, unit_price_cents: 60 },
      ],
    });
    const order = (await db.orders.get(uid))!;
    expect(order.parts.map((p) => [p.farmer.id, p.subtotal_cents, p.shipping_cents])).toEqual([
      [7, 620, 500],
      [8, 180, 300],
    ]);
    expect([order.total_cents, order.status]).toEqual([1600, 'processing']);

    // With the server's copy (parts have ids), a part the farmer ships moves the order.
    await db.orders.put({ ...order, id: 9, parts: order.parts.map((p, i) => ({ ...p, id: i + 1 })) });
    await changePart(db, (await db.orders.get(uid))!, 2, 'cancelled', 'No mangoes left');
    const after = (await db.orders.get(uid))!;
    expect(after.parts.map((p) => p.status)).toEqual(['processing', 'cancelled']);
    expect(after.events.at(-1)).toMatchObject({ part_id: 2, kind: 'cancelled', note: 'No mangoes left' });
    db.close();
  });
});
