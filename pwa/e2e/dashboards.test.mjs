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
