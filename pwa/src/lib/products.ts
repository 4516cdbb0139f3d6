// Products on this device: the public catalogue as the last pull left it,
// plus a farmer's own listings with the changes they queued.
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb, LocalRecord } from './local-db';
import { uploadPhotos } from './photos';
import { enqueue, type EntityHandler } from './sync-engine';
import type { ListingInput } from './sync-protocol';

export type Category = 'vegetables' | 'fruits' | 'grains' | 'dairy' | 'beverages' | 'herbs';
export const CATEGORIES: readonly Category[] = ['vegetables', 'fruits', 'grains', 'dairy', 'beverages', 'herbs'];

/** The certifications a listing may carry (the server's list). */
export type Certification = 'organic' | 'fair-trade' | 'rainforest-alliance';

export interface ProductImage {
  url: string;
  thumbnail_url: string;
}

/** A product as the server sends it (docs/api.md, "Products"). */
export interface Product extends LocalRecord {
  id?: number;
  title: string;
  /** The name in a language of the platform, when the farmer gave it (docs/products.md). */
  title_en?: string | null;
  title_fr?: string | null;
  title_sw?: string | null;
  description: string;
  category: Category;
  unit: 'kg' | 'piece';
  quantity: number;
  price: number;
  current_price: number;
  currency: string;
  status: 'active' | 'inactive';
  image_urls: ProductImage[];
  images: string[];
  harvest_date: string | null;
  expiry_date: string | null;
  certifications: Certification[];
  tags: string[];
  shipping: { available: boolean; cost: number; estimated_days: string | null };
  min_order: number;
  max_order: number | null;
  rating: number;
  reviews: number;
  farmer: { id: number; name: string; location: string | null; rating: number; verified: boolean };
  low_stock?: boolean;
  created_at?: string;
  /** Hidden from the marketplace by an admin, with the reason (seen by its farmer and admins). */
  hidden?: { reason: string; at: string } | null;
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
    const current = (await db.products.get(uid)) ?? { uid, created_at: mutation.client_time, status: 'active' };
    if (mutation.name === 'product.adjust_stock') {
      await db.products.put({ ...current, quantity: Number(current.quantity ?? 0) + Number(mutation.args.delta) });
      return;
    }
    await db.products.put({ ...current, ...fromInput(mutation.args.fields as ListingInput) });
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

function fromInput(fields: ListingInput | undefined): Partial<Product> {
  return Object.fromEntries(
    Object.entries(fields ?? {}).map(([key, value]) => [key, value === '' ? null : value]),
  ) as Partial<Product>;
}

/** The form's fields of a product as the server (or this phone) has it. */
export function fieldsOf(p: Product): ProductFields {
  return {
    title: p.title ?? '',
    title_en: p.title_en ?? null,
    title_fr: p.title_fr ?? null,
    title_sw: p.title_sw ?? null,
    description: p.description ?? '',
    category: p.category ?? 'vegetables',
    unit: p.unit ?? 'kg',
    price: Number(p.price ?? 0),
    current_price: Number(p.current_price ?? 0),
    status: p.status ?? 'active',
    harvest_date: p.harvest_date ?? null,
    expiry_date: p.expiry_date ?? null,
    certifications: p.certifications ?? [],
    tags: p.tags ?? [],
    shipping_available: p.shipping?.available ?? (p.shipping_available as boolean | undefined) ?? true,
    shipping_cost: p.shipping?.cost ?? Number(p.shipping_cost ?? 5),
    shipping_days: p.shipping?.estimated_days ?? (p.shipping_days as string | null | undefined) ?? null,
    min_order: Number(p.min_order ?? 1),
    max_order: p.max_order ?? null,
    images: p.images ?? [],
  };
}

/** The product's name for a reader of `language`: the farmer's name in it, if they gave one. */
export function productTitle(
  p: Pick<Product, 'title' | 'title_en' | 'title_fr' | 'title_sw'>,
  language?: string,
): string {
  const key = `title_${(language ?? '').slice(0, 2)}` as 'title_en' | 'title_fr' | 'title_sw';
  return (['title_en', 'title_fr', 'title_sw'].includes(key) && p[key]) || p.title;
}

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
  const existing = (await db.products.get(uid)) as Product | undefined;
  const queuedCreate = await db.outbox
    .where('uid')
    .equals(uid)
    .and((e) => e.name === 'product.create' && e.state !== 'rejected')
    .count();
  if (!existing) {
    await enqueue(db, 'product.create', { uid, fields: toInput({ ...fields, quantity }) });
    // The farmer's own card, until the server's copy arrives.
    await db.products.update(uid, {
      farmer: { id: farmerId, name: '', location: null, rating: 0, verified: false },
      image_urls: [],
      rating: 0,
      reviews: 0,
    });
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
    await db.transaction('rw', db.products, db.outbox, async () => {
      await db.products.delete(uid);
      await db.outbox.where('uid').equals(uid).delete();
    });
    return;
  }
  await enqueue(db, 'product.delete', { uid });
}

/** The farmer's own products, newest first; `undefined` while loading. */
export function useOwnProducts(db: LocalDb, farmerId: number): Product[] | undefined {
  return useLiveQuery(async () => {
    const all = (await db.products.toArray()) as Product[];
    return all
      .filter((p) => p.farmer?.id === farmerId)
      .sort((a, b) => String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')));
  }, [db, farmerId]);
}
