// The dashboards' homes show real figures and events, and follow what happens
// (issue: dashboards that tell the truth).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { DEMO_PASSWORD, PHONE, newBuyer, pickupOrder, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();

async function figure(page, label) {
  const card = page.locator('.stat-card', { has: page.locator('.stat-label', { hasText: label }) });
  return Number((await card.locator('.stat-value').innerText()).replace(/\D/g, ''));
}

async function tokenOf(origin, email) {
  const response = await fetch(`${origin}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email, password: DEMO_PASSWORD } }),
  });
  return (await response.json()).user.token;
}

/** farmer@mavuno.demo ships their part of `order`, from another device. */
async function ship(origin, order) {
  const farmer = await tokenOf(origin, 'farmer@mavuno.demo');
  const shipped = await fetch(`${origin}/api/v1/orders/${order.id}/parts/${order.parts[0].id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${farmer}` },
    body: JSON.stringify({ status: 'shipped' }),
  });
  assert.equal(shipped.status, 200);
}

/** A new buyer orders one of farmer@mavuno.demo's products; answers the buyer's email and the order. */
async function orderFromFarmer(origin) {
  const farmer = await tokenOf(origin, 'farmer@mavuno.demo');
  const me = await (await fetch(`${origin}/api/v1/me`, { headers: { authorization: `Bearer ${farmer}` } })).json();
  const catalogue = await (await fetch(`${origin}/api/v1/products?per_page=50`)).json();
  const product = catalogue.data.find((p) => p.farmer.id === me.user.id && p.quantity >= p.min_order);
  const email = await newBuyer(origin, 'orders');
  const buyer = await tokenOf(origin, email);
  const line = {
    product_id: product.id,
    quantity: product.min_order,
    unit_price_cents: Math.round(product.current_price * 100),
  };
  const order = pickupOrder(line);
  const placed = await fetch(`${origin}/api/v1/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer}` },
    body: JSON.stringify(order),
  });
  const answer = await placed.text();
  assert.equal(placed.status, 201, answer);
  return { email, order: JSON.parse(answer).data };
}

test('an admin sees the platform’s figures and a new sign-up among the recent activity', async () => {
  const { origin } = env.server;
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(page, origin, 'admin@mavuno.demo');
  await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
  const people = await figure(page, 'People');
  assert.ok(people >= 8, `the demo's accounts: ${people}`);

  await newBuyer(origin, 'dashboard');
  await page.reload();
  // The figures seen last show at once; the server's new ones replace them.
  await page.waitForFunction(
    ([label, count]) =>
      [...document.querySelectorAll('.stat-card')].some(
        (card) =>
          card.querySelector('.stat-label')?.textContent?.startsWith(label) &&
          Number(card.querySelector('.stat-value')?.textContent?.replace(/\D/g, '')) === count,
      ),
    ['People', people + 1],
  );
  await page.getByRole('button', { name: 'Neema Bahati signed up (Buyer)' }).first().click();
  await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
});

test('a super admin is told when this server is the only copy of the data; an admin is not', async () => {
  const { origin } = env.server;
  // The test server runs without an off-site copy (docs/operations.md, Off-site copy).
  const root = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(root, origin, 'superadmin@mavuno.demo');
  await root.getByRole('status').filter({ hasText: 'This server is the only copy of your data' }).waitFor();
  const admin = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  await admin.getByRole('heading', { name: 'Recent activity' }).waitFor();
  assert.equal(await admin.getByText('This server is the only copy of your data').count(), 0);
});

test('a farmer’s order count and activity follow a buyer’s order, with the app open', async () => {
  const { origin } = env.server;
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(page, origin, 'farmer@mavuno.demo');
  await page.getByText(/^From this phone · last synced/).waitFor();
  const orders = await figure(page, 'Orders');

  const { order } = await orderFromFarmer(origin);
  const number = order.id;

  await page.getByRole('button', { name: `Order #${number} placed` }).waitFor();
  assert.equal(await figure(page, 'Orders'), orders + 1);
});

test('an admin hides a listing with a reason: buyers no longer see it, its farmer reads why', async () => {
  const { origin } = env.server;
  const admin = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  await admin.getByRole('button', { name: 'Open menu' }).click();
  await admin.getByRole('navigation').getByRole('button', { name: 'Products' }).click();
  await admin.getByLabel('Search').fill('avocados');
  const card = admin.locator('.admin-product', { hasText: 'Avocados' });
  // Its details, as its farmer sees them.
  await card.getByRole('button', { name: 'View' }).click();
  const details = admin.getByRole('dialog', { name: 'Avocados' });
  await details.getByText('Creamy avocados from Rusizi').waitFor();
  await details.getByRole('button', { name: 'Close' }).click();
  await card.getByRole('button', { name: 'Hide' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Hide “Avocados” from the marketplace?' });
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await dialog.getByText('Say why the listing is hidden: its farmer reads it').waitFor();
  await dialog.getByLabel(/^Reason it is hidden/).fill('The price is per kilo, not per piece: please correct it.');
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await admin.getByText('The listing is hidden and its farmer is told.').waitFor();
  await card.getByText('Reason it is hidden: The price is per kilo').waitFor();

  const catalogue = await (await fetch(`${origin}/api/v1/products?q=avocados`)).json();
  assert.equal(catalogue.total, 0, 'gone from the marketplace');
  const visitor = await (await env.browser.newContext(PHONE)).newPage();
  await visitor.goto(`${origin}/marketplace?lng=en`);
  await visitor.getByRole('link', { name: 'Mangoes' }).waitFor();
  assert.equal(await visitor.getByRole('link', { name: 'Avocados' }).count(), 0);

  const farmer = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(farmer, origin, 'habimana@mavuno.demo');
  await farmer.getByRole('button', { name: 'Open menu' }).click();
  await farmer.getByRole('navigation').getByRole('button', { name: 'Products' }).click();
  await farmer
    .locator('.product-row', { hasText: 'Avocados' })
    .getByText('Hidden from the marketplace by the MAVUNO team: The price is per kilo, not per piece')
    .waitFor();

  await card.getByRole('button', { name: 'Put back on sale' }).click();
  await admin.getByText('The listing is back.').waitFor();
  const again = await (await fetch(`${origin}/api/v1/products?q=avocados`)).json();
  assert.equal(again.total, 1);
});

test('where WebSockets do not get through, the open app hears of a change by long polls', async () => {
  const { origin } = env.server;
  const { email, order } = await orderFromFarmer(origin);
  const context = await env.browser.newContext(PHONE);
  // A proxy that lets plain requests through but no WebSocket: each fails before it opens.
  await context.addInitScript(() => {
    window.WebSocket = class extends EventTarget {
      constructor() {
        super();
        setTimeout(() => this.onclose?.(new CloseEvent('close', { code: 1006 })), 50);
      }
      send() {}
      close() {}
    };
  });
  const page = await context.newPage();
  const polls = [];
  page.on('request', (request) => request.url().includes('/api/v1/sync/wait') && polls.push(request.url()));
  await signIn(page, origin, email);
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();

  await ship(origin, order);
  await page.getByRole('button', { name: 'Notifications, 2 unread' }).waitFor({ timeout: 8_000 });
  assert.ok(polls.length > 0, 'it listened with long polls');
  await context.close();
});

test('a buyer is notified when the farmer ships, and the notification opens their orders', async () => {
  const { origin } = env.server;
  const { email, order } = await orderFromFarmer(origin);
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(page, origin, email);
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();

  await ship(origin, order);
  // The open app hears of it within seconds.
  await page.getByRole('button', { name: 'Notifications, 2 unread' }).click();
  // Escape closes the panel; the bell opens it again.
  await page.keyboard.press('Escape');
  await page.getByRole('region', { name: 'Notifications' }).waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Notifications, 2 unread' }).click();
  await page.getByRole('button', { name: `Your order #${order.id} is on its way` }).click();
  await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();

  // On the public pages too: the header's bell opens the same notifications.
  await page.goto(`${origin}/marketplace?lng=en`);
  await page.getByRole('banner').getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await page.getByRole('button', { name: `Your order #${order.id} is placed` }).click();
  await page.waitForURL(`${origin}/dashboard?section=orders`);
  await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, 'the header fits a 360 px phone');
});

test('an admin reads a chart in French, with its text alternative, another period and its CSV', async () => {
  const { origin } = env.server;
  await orderFromFarmer(origin);
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(page, origin, 'admin@mavuno.demo');
  await page.goto(`${origin}/dashboard?section=analytics&lng=fr`);
  const card = page.locator('article', {
    has: page.getByRole('heading', { name: "Commandes et chiffre d'affaires par mois" }),
  });
  // Named and described: the sentence says this month's orders (at least the one just placed).
  const chart = card.getByRole('img', { name: 'Commandes', exact: true });
  await chart.waitFor();
  const description = await chart.locator('desc').textContent();
  assert.match(description, /12 derniers mois : Commandes : [1-9]\d*, Chiffre d'affaires \(US\$\) : /);
  await card.getByText('Les chiffres').click();
  await card.getByRole('columnheader', { name: 'Mois' }).waitFor();

  // Another period: by day, and the CSV of those numbers, in French.
  await card.getByLabel('Période').selectOption('30d');
  await card.locator('th', { hasText: 'Jour' }).first().waitFor({ state: 'attached' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Exporter en CSV' }).click(),
  ]);
  assert.match(download.suggestedFilename(), /^analytics_orders_\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
  assert.equal(csv[0], "Jour,Commandes,Chiffre d'affaires (US$)");
  assert.equal(csv.length > 30, true, 'a row per day of the 30');

  // The goals say what is not recorded rather than a zero.
  const goals = page.locator('article', { has: page.getByRole('heading', { name: 'Objectifs pour 2030' }) });
  await goals.getByText('Femmes et jeunes touchés', { exact: true }).waitFor();
  await goals
    .getByText(/^Non enregistré/)
    .first()
    .waitFor();
});
