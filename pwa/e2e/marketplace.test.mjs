// Buyers browse the marketplace, offline too, and fill a cart (issue: a real marketplace).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, appStarted, assertOffline, controlledByServiceWorker, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();

test('a buyer finds a product by search and category, adds 2 to the cart, and the cart survives a reload', async () => {
  const { origin } = env.server;
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await page.goto(`${origin}/marketplace?lng=en`);
  await page.getByText('Showing 9 of 9 products').waitFor();
  // The coffee is listed in English; its Kiswahili and French names find it too.
  await page.getByLabel('Search products').fill('kahawa kivu');
  await page.getByText('Showing 1 of 9 products').waitFor();
  await page.getByRole('link', { name: 'Arabica coffee beans' }).waitFor();
  await page.getByLabel('Search products').fill('cassava kivu');
  await page.getByText('Showing 0 of 9 products').waitFor();
  await page.getByLabel('Search products').fill('arabica nabintu');
  await page.getByText('Showing 1 of 9 products').waitFor();
  await page.getByLabel('Search products').fill('');
  await page.getByRole('button', { name: 'Fruits' }).click();
  await page.getByText('Showing 2 of 9 products').waitFor();
  await page.getByLabel('Sort by').selectOption('price_desc');
  const titles = await page.locator('.product-card h2').allInnerTexts();
  assert.deepEqual(titles, ['Mangoes', 'Avocados']);
  await page.getByRole('button', { name: 'Herbs & Spices' }).click();
  await page.getByText('No products found').waitFor();
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await page.getByText('Showing 9 of 9 products').waitFor();

  await page.getByRole('link', { name: 'Fresh tomatoes' }).click();
  await page.getByRole('heading', { name: 'Fresh tomatoes' }).waitFor();
  await page.getByText('Verified Seller').waitFor();
  await page.getByRole('button', { name: 'One more' }).click();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();

  await page.reload();
  await page.getByRole('link', { name: 'Cart, 2 items' }).click();
  const line = page.locator('.cart-line', { hasText: 'Fresh tomatoes' });
  await line.getByText('$2.40').waitFor();
  assert.equal(
    await page.locator('.cart-summary').getByText('$7.40').count(),
    1,
    'subtotal 2.40 + one parcel from the farmer at 5.00',
  );
  await page.getByRole('button', { name: 'Login to Checkout' }).click();
  await page.getByLabel(/^Email/).fill('buyer@mavuno.demo');
  await page.getByLabel(/^Password/).fill('mavuno-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/cart`);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).waitFor();
});

test('with the network off the marketplace still lists, filters and shows cached pictures', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${origin}/marketplace?lng=en`);
  await controlledByServiceWorker(page);
  await page.getByText('Showing 9 of 9 products').waitFor();
  // Scroll through so every card's picture is fetched (and cached) once.
  for (const card of await page.locator('.product-card img').all()) await card.scrollIntoViewIfNeeded();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.product-card img')].every((img) => img.complete && img.naturalWidth > 0),
  );

  await context.setOffline(true);
  await assertOffline(page);
  // Chromium's offline emulation can reach a service worker a moment late; the large
  // pictures this test says were never fetched are refused outright as well.
  await context.route(/-(720|1024)\.jpg$/, (route) => route.abort('internetdisconnected'));
  await page.reload();
  await page.getByText('Showing 9 of 9 products').waitFor();
  // A French search finds the coffee listed in English (and the coffee cooperative's two
  // lots), with no signal too.
  await page.getByLabel('Search products').fill('Café');
  await page.getByText('Showing 3 of 9 products').waitFor();
  await page.getByRole('link', { name: 'Arabica coffee beans' }).waitFor();
  // Beans by their French name: the green beans and the bean lot, not the coffee beans.
  await page.getByLabel('Search products').fill('haricots');
  await page.getByText('Showing 2 of 9 products').waitFor();
  assert.deepEqual(await page.locator('.product-card h2').allInnerTexts(), [
    'Beans grade A, lot 1 of Walungu Bean Cooperative',
    'Green beans',
  ]);
  const picture = page.locator('.product-card img').first();
  await picture.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const img = document.querySelector('.product-card img');
    return img && img.complete && img.naturalWidth > 0;
  });
  await page.getByRole('link', { name: 'Green beans' }).click();
  await page.getByRole('heading', { name: 'Green beans' }).waitFor();
  // Its large picture was never fetched: the cached card size shows, no broken image.
  await page.waitForFunction(() => {
    const main = document.querySelector('.gallery .product-image');
    const images = [...document.querySelectorAll('main img')];
    return (
      main instanceof HTMLImageElement &&
      main.src.endsWith('-320.jpg') &&
      images.every((img) => img.complete && img.naturalWidth > 0)
    );
  });
  await page.goBack();

  // Saving data: no pictures until asked.
  await page.getByLabel(/^Save data/).check();
  assert.equal(await page.locator('.product-card img').count(), 0);
  await page.getByRole('button', { name: 'Show picture' }).first().click();
  assert.equal(await page.locator('.product-card img').count(), 1);
});

test('a favourite marked while signed in follows the buyer to another phone', async () => {
  const { origin } = env.server;
  const openMangoes = async (page) => {
    await page.goto(`${origin}/marketplace?lng=en`);
    await page.getByRole('link', { name: 'Mangoes' }).click();
    await page.getByRole('heading', { name: 'Mangoes' }).waitFor();
  };
  const phone = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(phone, origin, 'furaha@mavuno.demo');
  await openMangoes(phone);
  await phone.getByRole('button', { name: 'Add to favourites' }).click();
  await phone.getByRole('button', { name: 'Remove from favourites' }).waitFor();
  await phone.getByText('Synced').waitFor();

  const otherContext = await env.browser.newContext(PHONE);
  const other = await otherContext.newPage();
  await signIn(other, origin, 'furaha@mavuno.demo');
  await controlledByServiceWorker(other);
  await openMangoes(other);
  await other.getByRole('button', { name: 'Remove from favourites' }).waitFor();

  // The Wishlist, with no signal: price and stock as the phone has them, to the cart, removed.
  await otherContext.setOffline(true);
  await assertOffline(other);
  await other.goto(`${origin}/dashboard`);
  await other.getByRole('button', { name: 'Open menu' }).click();
  await other.getByRole('navigation').getByRole('button', { name: 'Wishlist' }).click();
  const line = other.locator('.wishlist li', { hasText: 'Mangoes' });
  await line.getByText(/\$0\.60/).waitFor();
  await line.getByText(/in stock/).waitFor();
  await line.getByRole('button', { name: 'Add to Cart' }).click();
  await other.getByText('Mangoes added to your cart').waitFor();
  await line.getByRole('button', { name: 'Remove' }).click();
  await other.getByText(/^No favourites yet/).waitFor();
  await otherContext.setOffline(false);
  await other.getByText('Synced').waitFor();
  // The first phone hears of it at its next sync.
  await openMangoes(phone);
  await phone.getByRole('button', { name: 'Add to favourites' }).waitFor();
});

test('a long catalogue is drawn a page at a time, and a new search starts from its first page', async () => {
  const { origin } = env.server;
  const login = await fetch(`${origin}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email: 'farmer@mavuno.demo', password: 'mavuno-demo' } }),
  });
  const token = (await login.json()).user.token;
  for (let n = 1; n <= 30; n++) {
    const product = { title: `Sorghum lot ${n}`, description: 'Dry sorghum from Kabare', quantity: 40, price: 1.1 };
    const listed = await fetch(`${origin}/api/v1/farmer/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ product: { ...product, current_price: product.price } }),
    });
    assert.equal(listed.status, 201);
  }
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await page.goto(`${origin}/marketplace?lng=en`);
  // The server's first screen shows 8 cards; the app draws its page of 24.
  await appStarted(page);
  const total = Number((await page.getByText(/^Showing \d+ of \d+ products$/).textContent()).match(/of (\d+)/)[1]);
  assert.ok(total >= 36, `${total} products on sale`);
  assert.equal(await page.locator('.product-card').count(), 24, 'the first 24 are drawn');
  await page.getByRole('button', { name: `Show ${Math.min(24, total - 24)} more products` }).click();
  await page.locator('.product-card').nth(24).waitFor();
  assert.equal(await page.locator('.product-card').count(), Math.min(48, total));
  // Searching starts again from the top; the rest of the matches wait behind a button.
  await page.getByLabel('Search products').fill('sorghum lot');
  await page.getByText('Showing 30 of').waitFor();
  assert.equal(await page.locator('.product-card').count(), 24);
  await page.getByRole('button', { name: 'Show 6 more products' }).click();
  assert.equal(await page.locator('.product-card').count(), 30);
  assert.equal(await page.getByRole('button', { name: /^Show \d+ more/ }).count(), 0);
});

test('a reader of French or Kiswahili reads the demo products’ descriptions in their language', async () => {
  const page = await (await env.browser.newContext(PHONE)).newPage();
  for (const [lng, title, description] of [
    ['fr', 'Maïs doux', 'Épis de maïs jaune tendres, récoltés jeunes, à griller ou à bouillir.'],
    ['sw', 'Mahindi matamu', 'Mahindi mabichi ya njano, yaliyovunwa yakiwa machanga, ya kuchoma au kuchemsha.'],
  ]) {
    await page.goto(`${env.server.origin}/marketplace?lng=${lng}&q=${encodeURIComponent(title)}`);
    const card = page.locator('main .product-card', { hasText: title });
    // The server's first screen, then the app's card once it has taken over.
    await card.getByText(description).waitFor();
    await appStarted(page);
    await page.locator('main .product-card', { hasText: title }).getByText(description).waitFor();
    assert.equal(await page.getByText('Tender yellow maize cobs').count(), 0);
  }
});
