// Products on this device: the public catalogue as the last pull left it,
// plus a farmer's own listings with the changes they queued.
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from '../sync/local-db';
import type { Product } from '../sync/stored';
import type { Category, Certification, ProductImage } from '../sync/records';
import { uploadPhotos } from '../sync/photos';
import { enqueue, forget, type EntityHandler } from '../sync/engine';
import type { ListingInput } from '../sync/protocol';

export type { Category, Certification, ProductImage };
export { CATEGORIES } from '../sync/records';

export type { Product };

/** Delivery as a new listing offers it until the farmer says otherwise (the server's default). */
const FIRST_SHIPPING: Product['shipping'] = { available: true, cost: 5, estimated_days: null };

/**
 * A listing's delivery as this phone keeps it. A listing saved offline by an earlier version
 * of the app, and not yet sent, kept it as three flat fields: it reads as the default.
 */
function shippingOf(p: Product): Product['shipping'] {
  return (p.shipping as Product['shipping'] | undefined) ?? FIRST_SHIPPING;
}

/** A listing made on this phone, until the server's copy arrives: what the server fills in. */
function newListing(uid: string, at: string): Product {
  return {
    uid,
    title: '',
    title_en: null,
    title_fr: null,
    title_sw: null,
    description: '',
    description_en: null,
    description_fr: null,
    description_sw: null,
    category: 'vegetables',
    unit: 'kg',
    quantity: 0,
    price: 0,
    current_price: 0,
    currency: 'USD',
    status: 'active',
    image_urls: [],
    images: [],
    harvest_date: null,
    expiry_date: null,
    certifications: [],
    tags: [],
    shipping: FIRST_SHIPPING,
    min_order: 1,
    max_order: null,
    rating: 0,
    reviews: 0,
    // Its farmer is the person on this phone (saveProduct names them).
    farmer: { id: 0, name: '', location: null, rating: 0, verified: false },
    created_at: at,
    updated_at: at,
    hidden: null,
    lot: null,
  };
}

/** How a farmer's queued changes alter the local copy (and rebase it after a pull). */
export const productEntity: EntityHandler = {
  table: (db) => db.products,
  async apply(db, mutation) {
    const uid = mutation.args.uid as string;
    if (mutation.name === 'product.delete') {
      await db.products.delete(uid);
      return;
    }
    const current = (await db.products.get(uid)) ?? newListing(uid, mutation.client_time ?? new Date().toISOString());
    if (mutation.name === 'product.adjust_stock') {
      await db.products.put({ ...current, quantity: current.quantity + Number(mutation.args.delta) });
      return;
    }
    await db.products.put({ ...current, ...fromInput(mutation.args.fields as ListingInput, current) });
  },
  async beforePush(db, mutation) {
    const images = (mutation.args.fields as { images?: string[] } | undefined)?.images;
    if (images?.length) await uploadPhotos(db, images);
  },
};

/** What the farmer's form edits; prices in dollars. */
export interface ProductFields {
  title: string;
  title_en: string | null;
  title_fr: string | null;
  title_sw: string | null;
  description: string;
  description_en: string | null;
  description_fr: string | null;
  description_sw: string | null;
  category: Category;
  unit: 'kg' | 'piece';
  price: number;
  current_price: number;
  status: 'active' | 'inactive';
  harvest_date: string | null;
  expiry_date: string | null;
  certifications: string[];
  tags: string[];
  shipping_available: boolean;
  shipping_cost: number;
  shipping_days: string | null;
  min_order: number;
  max_order: number | null;
  images: string[];
}

/**
 * What the server reads: a cleared date, delivery time or maximum order is
 * sent blank (the server keeps a field that is absent or null), and kept as
 * null on the phone.
 */
function toInput(fields: Partial<ProductFields> & { quantity?: number }): ListingInput {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value ?? ''])) as ListingInput;
}

/** A change of listing as the server will keep it: blanks are nulls, the shipping fields one object. */
function fromInput(input: ListingInput | undefined, current: Product): Partial<Product> {
  const { shipping_available, shipping_cost, shipping_days, ...rest } = input ?? {};
  const out = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, value === '' ? null : value]),
  ) as Partial<Product>;
  if (shipping_available !== undefined || shipping_cost !== undefined || shipping_days !== undefined) {
    const was = shippingOf(current);
    out.shipping = {
      available: shipping_available === undefined ? was.available : Boolean(shipping_available),
      cost: shipping_cost === undefined ? was.cost : Number(shipping_cost),
      estimated_days: shipping_days === undefined ? was.estimated_days : shipping_days || null,
    };
  }
  return out;
}

/** The form's fields of a product as the server (or this phone) has it. */
export function fieldsOf(p: Product): ProductFields {
  const shipping = shippingOf(p);
  return {
    title: p.title ?? '',
    title_en: p.title_en ?? null,
    title_fr: p.title_fr ?? null,
    title_sw: p.title_sw ?? null,
    description: p.description ?? '',
    description_en: p.description_en ?? null,
    description_fr: p.description_fr ?? null,
    description_sw: p.description_sw ?? null,
    category: p.category ?? 'vegetables',
    unit: p.unit ?? 'kg',
    price: Number(p.price ?? 0),
    current_price: Number(p.current_price ?? 0),
    status: p.status ?? 'active',
    harvest_date: p.harvest_date ?? null,
    expiry_date: p.expiry_date ?? null,
    certifications: p.certifications ?? [],
    tags: p.tags ?? [],
    shipping_available: shipping.available,
    shipping_cost: shipping.cost,
    shipping_days: shipping.estimated_days,
    min_order: Number(p.min_order ?? 1),
    max_order: p.max_order ?? null,
    images: p.images ?? [],
  };
}

type Texts = 'title' | 'description';

/** A product's `text` in the reader's language, when its farmer wrote one there; else their own. */
function inLanguage<K extends Texts>(
  p: Pick<Product, K> & Partial<Pick<Product, `${K}_en` | `${K}_fr` | `${K}_sw`>>,
  text: K,
  language?: string,
): string {
  const code = (language ?? '').slice(0, 2);
  const given = ['en', 'fr', 'sw'].includes(code) ? p[`${text}_${code}` as `${K}_en`] : undefined;
  return (given as string | null | undefined) || (p[text] as string);
}

/** Its name in the reader's language, when its farmer gave one; else its title. */
export const productTitle = (
  p: Pick<Product, 'title'> & Partial<Pick<Product, 'title_en' | 'title_fr' | 'title_sw'>>,
  language?: string,
): string => inLanguage(p, 'title', language);

/** Its description in the reader's language, when its farmer gave one; else its description. */
export const productDescription = (
  p: Pick<Product, 'description'> & Partial<Pick<Product, 'description_en' | 'description_fr' | 'description_sw'>>,
  language?: string,
): string => inLanguage(p, 'description', language);

/** A product is low on stock at this many units or fewer (the server says the same). */
export const LOW_STOCK = 10;

/**
 * Saves the farmer's form: a create until the server has the product, then
 * an edit of the fields that changed on top of its version. A change of
 * quantity is sent as an increment, so a sale made meanwhile is not undone.
 */
export async function saveProduct(
  db: LocalDb,
  uid: string,
  fields: Partial<ProductFields>,
  quantity: number,
  farmerId: number,
): Promise<void> {
  const existing = await db.products.get(uid);
  const queuedCreate = await db.outbox
    .where('uid')
    .equals(uid)
    .and((e) => e.name === 'product.create' && e.state !== 'rejected')
    .count();
  if (!existing) {
    await enqueue(db, 'product.create', { uid, fields: toInput({ ...fields, quantity }) });
    // The farmer's own card, until the server's copy arrives.
    await db.products.update(uid, { farmer: { id: farmerId, name: '', location: null, rating: 0, verified: false } });
    return;
  }
  if (existing.version === undefined && queuedCreate > 0) {
    await enqueue(db, 'product.update', { uid, fields: toInput({ ...fields, quantity }) });
    return;
  }
  const before = fieldsOf(existing) as unknown as Record<string, unknown>;
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([key, value]) => JSON.stringify(before[key]) !== JSON.stringify(value)),
  );
  if (Object.keys(changed).length > 0)
    await enqueue(db, 'product.update', { uid, fields: toInput(changed) }, existing.version);
  const delta = quantity - existing.quantity;
  if (delta !== 0) await enqueue(db, 'product.adjust_stock', { uid, delta }, existing.version);
}

export async function deleteProduct(db: LocalDb, uid: string): Promise<void> {
  const existing = await db.products.get(uid);
  if (existing?.version === undefined) {
    await forget(db, db.products, uid);
    return;
  }
  await enqueue(db, 'product.delete', { uid });
}

/** The farmer's own products, newest first; `undefined` while loading. */
export function useOwnProducts(db: LocalDb, farmerId: number): Product[] | undefined {
  return useLiveQuery(async () => {
    const all = await db.products.toArray();
    return all
      .filter((p) => p.farmer?.id === farmerId)
      .sort((a, b) => String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')));
  }, [db, farmerId]);
}
