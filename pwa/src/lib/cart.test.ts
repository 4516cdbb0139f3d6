import { describe, expect, it } from 'vitest';
import type { Product } from './entities/products';
import { addToCart, checkLines, clearCart, setCartOwner, totals, type Cart, type CartItem } from './cart';

function item(id: number, farmer: number, quantity: number, price: number, shipping = 5): CartItem {
  return {
    id,
    quantity,
    price,
    product: {
      id,
      uid: `u${id}`,
      title: `P${id}`,
      image: null,
      farmer: { id: farmer, name: 'F' },
      unit: 'kg',
      stock: 100,
      shipping_cost: shipping,
      shipping_available: true,
    },
  };
}

describe('the cart', () => {
  it('charges one parcel per farmer, at their highest shipping price', () => {
    const lines = [item(1, 7, 2, 1.2, 5), item(2, 7, 1, 10.5, 8), item(3, 9, 3, 0.4, 6)].map((i) => ({
      item: i,
      price: i.price,
      available: true,
    }));
    expect(totals(lines)).toEqual({ subtotal: 14.1, shipping: 14, total: 28.1 });
  });

  it('shows a changed price, short stock and products no longer on sale', () => {
    const cart: Cart = { items: [item(1, 7, 5, 1.2), item(2, 7, 1, 3)] };
    const catalogue = [{ id: 1, current_price: 1.0, quantity: 3 }] as unknown as Product[];
    const [changed, gone] = checkLines(cart, catalogue);
    expect(changed).toMatchObject({ price: 1.0, priceChanged: true, short: true, stock: 3, available: true });
    expect(gone).toMatchObject({ available: false });
    expect(totals([changed!, gone!])).toEqual({ subtotal: 5, shipping: 5, total: 10 });
    expect(checkLines(cart, undefined)[0]).toMatchObject({ price: 1.2, available: true, priceChanged: false });
  });
});

describe('the cart on a shared phone', () => {
  it('shows each person their own cart, and a visitor’s cart joins the account signed in to', () => {
    localStorage.clear();
    const bean = (id: number) =>
      ({
        id,
        uid: `u${id}`,
        title: `P${id}`,
        current_price: 2,
        quantity: 50,
        unit: 'kg',
        image_urls: [],
        farmer: { id: 7, name: 'F' },
        shipping: { cost: 1, available: true },
      }) as unknown as Product;
    const ids = (key: string) =>
      (JSON.parse(localStorage.getItem(key) ?? '{"items":[]}') as Cart).items.map((i) => i.id);

    setCartOwner(null);
    addToCart(bean(1), 1);
    setCartOwner(1);
    expect(ids('cart:1')).toEqual([1]);
    expect(localStorage.getItem('cart')).toBeNull();
    setCartOwner(null);
    expect(ids('cart')).toEqual([]);
    addToCart(bean(2), 1);
    setCartOwner(2);
    expect(ids('cart:2')).toEqual([2]);
    expect(ids('cart:1')).toEqual([1]);
  });

  it('tells the server whether the cart shown holds something', () => {
    const filled = () => document.cookie.split('; ').includes('mavuno_cart=1');
    setCartOwner(2);
    expect(filled()).toBe(true);
    clearCart();
    expect(filled()).toBe(false);
    setCartOwner(1);
    expect(filled()).toBe(true);
  });
});
