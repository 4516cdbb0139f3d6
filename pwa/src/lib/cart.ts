// The cart (docs/product.md, Records and Statuses): kept in localStorage, so it survives
// reloads and works offline; every tab and the header badge follow it. A visitor's is
// under `cart`; each account on a phone keeps its own under `cart:<id>` (a shared
// phone shows nobody another person's cart), and a visitor's cart joins the account
// they sign in to.
import { useSyncExternalStore } from 'react';
import type { Product } from './entities/products';
import { cachedUserId } from './session';

const VISITOR_KEY = 'cart';
const EVENT = 'mavuno:cart';
/** Set while the cart shown holds something: a first visit's /cart is then not drawn
 * empty by the server (server/src/web/first_screen/). */
const FILLED_COOKIE = 'mavuno_cart';
const keyOf = (userId: number | null) => (userId === null ? VISITOR_KEY : `${VISITOR_KEY}:${userId}`);
// Known at once, so a page opened straight on /checkout finds the person's cart.
let key = typeof localStorage === 'undefined' ? VISITOR_KEY : keyOf(cachedUserId());

/** What a line keeps of its product, so the cart shows even before the catalogue has loaded. */
export interface CartProduct {
  id: number;
  uid: string;
  title: string;
  title_en?: string | null;
  title_fr?: string | null;
  title_sw?: string | null;
  image: string | null;
  farmer: { id: number; name: string };
  unit: Product['unit'];
  stock: number;
  shipping_cost: number;
  shipping_available: boolean;
  /** A cooperative's lot: collected at its store on its days, or delivered when the
   * cooperative says so (its shipping); carts saved before lack it, or its days. */
  lot?: { cooperative_id: number; cooperative_name: string; pickup: string; pickup_days?: string[] } | null;
}

export interface CartItem {
  id: number;
  product: CartProduct;
  quantity: number;
  /** The unit price when it was added. */
  price: number;
}

export interface Cart {
  items: CartItem[];
}

function read(from = key): Cart {
  try {
    const parsed = JSON.parse(localStorage.getItem(from) ?? '') as Cart;
    return Array.isArray(parsed?.items) ? parsed : { items: [] };
  } catch {
    return { items: [] };
  }
}

let snapshot: Cart = typeof localStorage === 'undefined' ? { items: [] } : read();
if (typeof document !== 'undefined') markFilled(snapshot);

function markFilled(cart: Cart): void {
  const filled = cart.items.length > 0;
  if (document.cookie.split('; ').includes(`${FILLED_COOKIE}=1`) === filled) return;
  document.cookie = `${FILLED_COOKIE}=${filled ? '1; max-age=31536000' : '; max-age=0'}; path=/; samesite=lax`;
}

function write(cart: Cart): void {
  snapshot = cart;
  markFilled(cart);
  try {
    localStorage.setItem(key, JSON.stringify(cart));
  } catch {
    // Storage full or unavailable: the cart lasts as long as the page.
  }
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === key) {
      snapshot = read();
      listener();
    }
  };
  window.addEventListener(EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Whose cart shows: the signed-in person's (`userId`) or a visitor's (`null`). */
export function setCartOwner(userId: number | null): void {
  const next = keyOf(userId);
  if (next === key) return;
  key = next;
  const cart = read();
  if (userId !== null) {
    const visitor = read(VISITOR_KEY).items.filter((v) => !cart.items.some((item) => item.id === v.id));
    cart.items.push(...visitor);
    try {
      localStorage.removeItem(VISITOR_KEY);
    } catch {
      // Storage unavailable: nothing was kept there either.
    }
  }
  write(cart);
}

export function useCart(): Cart {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}

/** The header badge: the sum of quantities. */
export function itemCount(cart: Cart): number {
  return cart.items.reduce((sum, item) => sum + item.quantity, 0);
}

export function toCartProduct(p: Product): CartProduct {
  return {
    id: p.id!,
    uid: p.uid,
    title: p.title,
    title_en: p.title_en ?? null,
    title_fr: p.title_fr ?? null,
    title_sw: p.title_sw ?? null,
    image: p.image_urls[0]?.thumbnail_url ?? null,
    farmer: { id: p.farmer.id, name: p.farmer.name },
    unit: p.unit,
    stock: p.quantity,
    shipping_cost: p.shipping.cost,
    shipping_available: p.shipping.available,
    lot: p.lot && {
      cooperative_id: p.lot.cooperative_id,
      cooperative_name: p.lot.cooperative_name,
      pickup: p.lot.pickup,
      pickup_days: p.lot.pickup_days,
    },
  };
}

/** Adding a product already in the cart raises its quantity (never above the stock). */
export function addToCart(product: Product, quantity: number): void {
  const cart = read();
  const existing = cart.items.find((item) => item.id === product.id);
  const line = toCartProduct(product);
  const items = existing
    ? cart.items.map((item) =>
        item === existing ? { ...item, product: line, quantity: Math.min(item.quantity + quantity, line.stock) } : item,
      )
    : [
        ...cart.items,
        { id: line.id, product: line, quantity: Math.min(quantity, line.stock), price: product.current_price },
      ];
  write({ items });
}

/** Zero or less removes the line. */
export function setQuantity(id: number, quantity: number): void {
  const cart = read();
  write({
    items: cart.items.flatMap((item) =>
      item.id !== id ? [item] : quantity <= 0 ? [] : [{ ...item, quantity: Math.min(quantity, item.product.stock) }],
    ),
  });
}

export function removeFromCart(id: number): void {
  setQuantity(id, 0);
}

export function clearCart(): void {
  write({ items: [] });
}

/** A line as it stands against the catalogue now (prices and stock change). */
export interface CheckedLine {
  item: CartItem;
  /** The unit price to pay now. */
  price: number;
  /** False when the product is no longer on sale. */
  available: boolean;
  priceChanged: boolean;
  /** The stock went below what is in the cart. */
  short: boolean;
  /** The stock as the catalogue says now. */
  stock: number;
}

/** Checks each line against the local catalogue; before it has loaded, lines stand as added. */
export function checkLines(cart: Cart, catalogue: Product[] | undefined): CheckedLine[] {
  return cart.items.map((item) => {
    if (!catalogue)
      return { item, price: item.price, available: true, priceChanged: false, short: false, stock: item.product.stock };
    const current = catalogue.find((p) => p.id === item.id);
    if (!current) return { item, price: item.price, available: false, priceChanged: false, short: false, stock: 0 };
    return {
      item,
      price: current.current_price,
      available: true,
      priceChanged: current.current_price !== item.price,
      short: current.quantity < item.quantity,
      stock: current.quantity,
    };
  });
}

/**
 * Shipping as the checkout charges it: one parcel per farmer, costing the
 * highest shipping price among that farmer's products in the cart; products
 * a farmer does not ship are collected from them, free.
 */
export function totals(lines: { item: CartItem; price: number; available: boolean }[]): {
  subtotal: number;
  shipping: number;
  total: number;
} {
  const live = lines.filter((l) => l.available);
  const subtotal = live.reduce((sum, l) => sum + l.price * l.item.quantity, 0);
  const perFarmer = new Map<number, number>();
  for (const { item } of live) {
    if (!item.product.shipping_available) continue;
    perFarmer.set(
      item.product.farmer.id,
      Math.max(perFarmer.get(item.product.farmer.id) ?? 0, item.product.shipping_cost),
    );
  }
  const shipping = [...perFarmer.values()].reduce((a, b) => a + b, 0);
  const round = (n: number) => Math.round(n * 100) / 100;
  return { subtotal: round(subtotal), shipping: round(shipping), total: round(subtotal + shipping) };
}
