// Products on this device: the public catalogue as the last pull left it,
// plus a farmer's own listings with the changes they queued (issue 6).
import type { LocalRecord } from '../../lib/local-db';
import type { EntityHandler } from '../../lib/sync-engine';

export type Category = 'vegetables' | 'fruits' | 'grains' | 'dairy' | 'beverages' | 'herbs';
export const CATEGORIES: readonly Category[] = ['vegetables', 'fruits', 'grains', 'dairy', 'beverages', 'herbs'];

export interface ProductImage {
  url: string;
  thumbnail_url: string;
}

/** A product as the server sends it (docs/api.md, "Products"). */
export interface Product extends LocalRecord {
  id?: number;
  title: string;
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
  certifications: string[];
  tags: string[];
  shipping: { available: boolean; cost: number; estimated_days: string | null };
  min_order: number;
  max_order: number | null;
  rating: number;
  reviews: number;
  farmer: { id: number; name: string; location: string | null; rating: number; verified: boolean };
  low_stock?: boolean;
  created_at?: string;
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
    await db.products.put({ ...current, ...(mutation.args.fields as object) });
  },
};
