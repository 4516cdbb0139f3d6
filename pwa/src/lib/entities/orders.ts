// Orders on this device (docs/orders.md): the buyer's and the farmer's copy
// pulled from the server, and orders placed or moved with no signal, shown
// at once and sent when the network is back.
import type { TFunction } from 'i18next';
import { useLiveQuery } from 'dexie-react-hooks';
import type { CheckedLine } from '../cart';
import type { LocalDb } from '../sync/local-db';
import type { Order } from '../sync/stored';
import { PART_STATUSES } from '../sync/records';
import type { Delivery, OrderEvent, OrderLine, OrderPart, PartStatus, PaymentMethod } from '../sync/records';
import { argsOf, enqueue, forget, newUid, type EntityHandler } from '../sync/engine';
import type { OrderPlace, ShippingInput } from '../sync/protocol';

export type { Delivery, OrderEvent, OrderLine, OrderPart, PartStatus, PaymentMethod };
export { PART_STATUSES };

export type { Order };

/** What a part earns its farmer: goods and shipping less the platform fee, rounded as the ledger does. */
export function partEarning(order: Pick<Order, 'platform_fee_bp'>, part: OrderPart): number {
  const gross = part.subtotal_cents + part.shipping_cents;
  return gross - Math.floor((gross * (order.platform_fee_bp ?? 0) + 5000) / 10000);
}

/** The order's status from its parts: the least advanced live part, or cancelled (as the server says). */
export function orderStatus(parts: Pick<OrderPart, 'status'>[]): PartStatus {
  const live = parts.map((p) => p.status).filter((s) => s !== 'cancelled');
  if (live.length === 0) return 'cancelled';
  return PART_STATUSES[Math.min(...live.map((s) => PART_STATUSES.indexOf(s)))]!;
}

const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * The order as the phone can tell it before the server answers: lines from
 * the catalogue on the device, one part per farmer, shipping as the cart
 * charges it. The server checks every line again and answers with its copy.
 */
async function preview(db: LocalDb, args: OrderPlace, at: string): Promise<Order> {
  const parts = new Map<number, OrderPart>();
  for (const line of args.lines) {
    const product = await db.products.where('id').equals(line.product_id).first();
    const farmer = product?.farmer ?? { id: 0, name: '', location: null, rating: 0, verified: false };
    const part = parts.get(farmer.id) ?? {
      id: 0,
      farmer: { id: farmer.id, name: farmer.name, location: farmer.location, phone: null, rating: farmer.rating },
      status: 'processing' as const,
      subtotal_cents: 0,
      shipping_cents: 0,
      cancel_reason: null,
      accepted_at: null,
      lines: [],
    };
    const total = line.unit_price_cents * line.quantity;
    part.lines.push({
      product_id: line.product_id,
      product_uid: product?.uid ?? '',
      title: product?.title ?? '',
      title_en: product?.title_en ?? null,
      title_fr: product?.title_fr ?? null,
      title_sw: product?.title_sw ?? null,
      unit: product?.unit ?? 'kg',
      quantity: line.quantity,
      unit_price_cents: line.unit_price_cents,
      line_total_cents: total,
    });
    part.subtotal_cents += total;
    if (args.delivery === 'delivery' && product?.shipping.available)
      part.shipping_cents = Math.max(part.shipping_cents, cents(product.shipping.cost));
    parts.set(farmer.id, part);
  }
  const list = [...parts.values()];
  const subtotal = list.reduce((sum, p) => sum + p.subtotal_cents, 0);
  const shipping = list.reduce((sum, p) => sum + p.shipping_cents, 0);
  return {
    uid: args.uid,
    status: 'processing',
    currency: 'USD',
    subtotal_cents: subtotal,
    shipping_cents: shipping,
    total_cents: subtotal + shipping,
    payment_method: args.payment_method as PaymentMethod,
    delivery: args.delivery as Delivery,
    shipping_address: args.shipping,
    parts: list,
    events: [{ part_id: null, kind: 'placed', note: null, at }],
    created_at: at,
  };
}

/** How queued order changes alter the local copy (and rebase it after a pull). */
export const orderEntity: EntityHandler = {
  table: (db) => db.orders,
  async apply(db, mutation) {
    const uid = mutation.args.uid as string;
    const at = mutation.client_time ?? new Date().toISOString();
    const placed = argsOf(mutation, 'order.place');
    if (placed) {
      if (!(await db.orders.get(uid))) await db.orders.put(await preview(db, placed, at));
      return;
    }
    const order = await db.orders.get(uid);
    if (!order) return;
    // The contract's status is any text (the server checks it); this phone queues only these.
    const { part_id, status, reason } = mutation.args as { part_id: number; status: PartChange; reason?: string };
    const parts = order.parts.map((p) => {
      if (p.id !== part_id) return p;
      // Accepting keeps the part being prepared; the buyer sees it accepted.
      if (status === 'accepted') return { ...p, accepted_at: p.accepted_at ?? at };
      return { ...p, status, cancel_reason: reason ?? p.cancel_reason };
    });
    const events = [...order.events, { part_id, kind: status, note: reason ?? null, at }];
    await db.orders.put({ ...order, parts, events, status: orderStatus(parts) });
  },
};

/** What the checkout sends: the lines at the prices the buyer sees now. */
export async function placeOrder(
  db: LocalDb,
  lines: Pick<CheckedLine, 'item' | 'price'>[],
  shipping: ShippingInput,
  delivery: Delivery,
  paymentMethod: PaymentMethod,
): Promise<string> {
  const uid = newUid();
  await enqueue(db, 'order.place', {
    uid,
    lines: lines.map(({ item, price }) => ({
      product_id: item.id,
      quantity: item.quantity,
      unit_price_cents: cents(price),
    })),
    delivery,
    payment_method: paymentMethod,
    shipping,
  });
  return uid;
}

/** Moves one part (the farmer ships or delivers; either side cancels), offline too. */
/** What a farmer (or buyer) does to a part: accept a new one, or move it to a status. */
export type PartChange = PartStatus | 'accepted';

export async function changePart(
  db: LocalDb,
  order: Order,
  partId: number,
  status: PartChange,
  reason?: string,
): Promise<void> {
  await enqueue(db, 'order.update_part', { uid: order.uid, part_id: partId, status, ...(reason ? { reason } : {}) });
}

/** An order the server refused: forget it on this phone. */
export async function dropOrder(db: LocalDb, uid: string): Promise<void> {
  await forget(db, db.orders, uid);
}

/** Newest first; `undefined` while loading. */
export function useOrders(db: LocalDb): Order[] | undefined {
  return useLiveQuery(async () => {
    const all = await db.orders.toArray();
    return all.sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  }, [db]);
}

/** A changed line of a refused order, as the server describes it. */
export interface ChangedLine {
  product_id: number;
  title?: string;
  title_en?: string | null;
  title_fr?: string | null;
  title_sw?: string | null;
  reason: 'price_changed' | 'short_stock' | 'below_min_order' | 'above_max_order' | 'off_sale';
  seen_price_cents?: number;
  price_cents?: number;
  stock?: number;
}

/** Why a part was cancelled: the person's own words, or the platform's (a payment that
 * failed or expired: "payment failed" on the server) in the reader's language. */
export function cancelReasonText(t: TFunction, reason: string): string {
  if (reason === 'payment failed') return t('orders.cancel_reasons.payment_failed');
  if (reason === 'payment expired') return t('orders.cancel_reasons.payment_expired');
  return reason;
}
