// The dashboards' homes show real figures and events, and follow what happens
// (issue: dashboards that tell the truth).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEMO_PASSWORD, PHONE, newBuyer, serverAndBrowser, signIn } from './harness.mjs';

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

test('an admin sees the platform’s figures and a new sign-up among the recent activity', async () => {
  const { origin } = env.server;
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(page, origin, 'admin@mavuno.demo');
  await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
  const people = await figure(page, 'People');
  assert.ok(people >= 8, `the demo's accounts: ${people}`);

  await newBuyer(origin, 'dashboard');
  await page.reload();
  await page.getByRole('button', { name: 'Neema Bahati signed up (Buyer)' }).first().waitFor();
  assert.equal(await figure(page, 'People'), people + 1);
  await page.getByRole('button', { name: 'Neema Bahati signed up (Buyer)' }).first().click();
  await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
});

test('a farmer’s order count and activity follow a buyer’s order, with the app open', async () => {
  const { origin } = env.server;
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(page, origin, 'farmer@mavuno.demo');
  await page.getByText(/^From this phone · last synced/).waitFor();
  const orders = await figure(page, 'Orders');

  const me = await (
    await fetch(`${origin}/api/v1/me`, {
      headers: { authorization: `Bearer ${await tokenOf(origin, 'farmer@mavuno.demo')}` },
    })
  ).json();
  const catalogue = await (await fetch(`${origin}/api/v1/products?per_page=50`)).json();
  const product = catalogue.data.find((p) => p.farmer.id === me.user.id && p.quantity >= p.min_order);
  const buyer = await tokenOf(origin, await newBuyer(origin, 'orders'));
  const order = {
    uid: crypto.randomUUID(),
    lines: [
      {
        product_id: product.id,
        quantity: product.min_order,
        unit_price_cents: Math.round(product.current_price * 100),
      },
    ],
    delivery: 'pickup',
    payment_method: 'cash_on_delivery',
    shipping: {
      first_name: 'Neema',
      last_name: 'Bahati',
      email: '',
      phone: '0991000777',
      address: 'Kabare',
      city: 'Bukavu',
      postal_code: '',
      country: 'DRC',
    },
  };
  const placed = await fetch(`${origin}/api/v1/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer}` },
    body: JSON.stringify(order),
  });
  const answer = await placed.text();
  assert.equal(placed.status, 201, answer);
  const number = JSON.parse(answer).data.id;

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
