// Buying for real (docs/orders.md): a buyer checks out with no signal, the
// order arrives once when the phone reconnects, the farmer (in French) ships
// and delivers it, and the buyer follows it; a price the farmer changed
// while the buyer was offline is shown before anything is placed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEMO_PASSWORD,
  PHONE,
  assertOffline,
  controlledByServiceWorker,
  serverAndBrowser,
  signIn,
  toCheckout,
  uniqueEmail,
  uniquePhone,
} from './harness.mjs';

const env = serverAndBrowser();

async function api(path, { token, method = 'GET', body } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${env.server.origin}/api/v1${path}`, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
}

async function tokenOf(email, password = DEMO_PASSWORD) {
  const { body } = await api('/users/login', { method: 'POST', body: { user: { email, password } } });
  return body.user.token;
}

/** A new buyer, so that this test's orders and cart are its own. */
async function newBuyer() {
  const email = uniqueEmail('buyer');
  const user = {
    first_name: 'Neema',
    last_name: 'Bahati',
    email,
    phone_number: uniquePhone(),
    country: 'DRC',
    password: 'harvest-2026',
    password_confirmation: 'harvest-2026',
  };
  const { status } = await api('/users', { method: 'POST', body: { user } });
  assert.equal(status, 201);
  return { email, password: user.password, token: await tokenOf(email, user.password) };
}

/** The demo farmer lists a product of this test's own (nobody else's test touches it). */
async function listProduct(farmerToken, title, price, names = {}) {
  const product = {
    title,
    ...names,
    description: `${title} from Kabare`,
    quantity: 30,
    price,
    current_price: price,
    shipping_cost: 4,
  };
  const { status, body } = await api('/farmer/products', { token: farmerToken, method: 'POST', body: { product } });
  assert.equal(status, 201);
  return body.product;
}

test('with a signal but no data getting through, checkout says the order waits, never that it was received', async () => {
  const farmerToken = await tokenOf('farmer@mavuno.demo');
  await listProduct(farmerToken, 'Cassava flour', 1.5);
  const buyer = await newBuyer();
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, buyer.email, buyer.password);
  await controlledByServiceWorker(page);
  await toCheckout(page, env.server.origin, 'Cassava flour');

  // The phone believes it is online; nothing reaches the server.
  await context.network.cut();
  assert.equal(await page.evaluate(() => navigator.onLine), true);
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.getByRole('heading', { name: 'Order saved on this phone' }).waitFor();
  await page.getByText('It is not sent yet').waitFor();
  await page.getByText('Not sent yet: the network is not getting through. 1 change is kept on this phone.').waitFor();
  assert.equal(await page.getByText('The farmers have received your order').count(), 0);
  assert.equal((await api('/orders', { token: buyer.token })).body.data.length, 0, 'nothing reached the server');

  // Data flows again: the engine's next try sends it, and only then is it "placed".
  await context.network.restore();
  await page.getByRole('heading', { name: 'Order placed' }).waitFor({ timeout: 20_000 });
  await page.getByText('The farmers have received your order').waitFor();
  assert.equal(await page.locator('.connection-note').count(), 0, 'the waiting line is gone');
  assert.equal((await api('/orders', { token: buyer.token })).body.data.length, 1);
  await context.close();
});

/** Waits until `check()` holds, failing with `what` after 10 s. */
async function within10s(check, what) {
  for (const started = Date.now(); !(await check()); await new Promise((resolve) => setTimeout(resolve, 100)))
    assert.ok(Date.now() - started < 10_000, what);
}

for (const [reaches, what] of [
  [false, 'its sending hears nothing back'],
  [true, 'it reached the server but its answer was lost'],
]) {
  test(`an order is sent once data flows again when ${what}, with nothing done by the buyer`, async () => {
    const title = reaches ? 'Millet grain' : 'Sorghum grain';
    await listProduct(await tokenOf('farmer@mavuno.demo'), title, 1.1);
    const buyer = await newBuyer();
    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await signIn(page, env.server.origin, buyer.email, buyer.password);
    await controlledByServiceWorker(page);
    await toCheckout(page, env.server.origin, title);

    // The order's sending is answered by nothing: its connection stays open and silent.
    context.network.stall(/^POST \/api\/v1\/sync\/push/, { reaches });
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: 'Order saved on this phone' }).waitFor();
    await within10s(() => context.network.stalls > 0, 'the order is being sent');
    const orders = async () => (await api('/orders', { token: buyer.token })).body.data.length;
    if (reaches) {
      await within10s(async () => (await orders()) > 0, 'the order reached the server');
    } else {
      await page.waitForTimeout(1000);
      assert.equal(await orders(), 0, 'nothing reached the server');
    }
    await page.getByText('It is not sent yet').waitFor();
    // Data flows again, but not on the dead connection the sending waits on: the app
    // gives it up after 30 s of silence and sends it again, and the server keeps one.
    context.network.unstall();
    await page.getByRole('heading', { name: 'Order placed' }).waitFor({ timeout: 60_000 });
    assert.equal(await orders(), 1, 'one order');
    await context.close();
  });
}

test('an order placed offline arrives once; the farmer ships and delivers it; the buyer follows it', async () => {
  const farmerToken = await tokenOf('farmer@mavuno.demo');
  const plantains = await listProduct(farmerToken, 'Plantains', 0.9, { title_fr: 'Bananes plantains' });
  const buyer = await newBuyer();

  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, buyer.email, buyer.password);
  await controlledByServiceWorker(page);
  await toCheckout(page, env.server.origin, 'Plantains');
  // Prefilled from the account, and the total as the cart showed it: 0.90 + the farmer's 4.00.
  assert.equal(await page.getByLabel(/^First name/).inputValue(), 'Neema');
  await page.locator('.cart-summary').getByText('$4.90').waitFor();

  await context.setOffline(true);
  await assertOffline(page);
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.getByRole('heading', { name: 'Order saved on this phone' }).waitFor();
  await page.getByText('Offline. 1 change waits on this phone').waitFor();
  await page.getByRole('link', { name: 'View Orders' }).click();
  await page.getByText('Saved on this phone, waiting to be sent').waitFor();
  assert.equal(await page.locator('.order-card .order-head .badge').innerText(), 'Waiting to send');
  await page.reload();
  await page.getByText('Saved on this phone, waiting to be sent').waitFor();

  await context.setOffline(false);
  await page.locator('.order-card h2', { hasText: /^Order #\d+$/ }).waitFor();
  const mine = await api('/orders', { token: buyer.token });
  assert.equal(mine.body.data.length, 1, 'one order, however often it was sent');
  const order = mine.body.data[0];
  assert.equal(order.total_cents, 490);

  // The farmer, in French, sees it in their Orders section and moves it along.
  const farmerContext = await env.browser.newContext(PHONE);
  const farmer = await farmerContext.newPage();
  await signIn(farmer, env.server.origin, 'farmer@mavuno.demo');
  await farmer.goto(`${env.server.origin}/dashboard?lng=fr`);
  await farmer.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await farmer.getByRole('navigation').getByRole('button', { name: 'Commandes' }).click();
  const card = farmer.locator('.order-card', { hasText: `Commande n° ${order.id}` });
  await card.getByText('Neema Bahati').waitFor();
  // Each reader sees the product's name in their language, as the marketplace showed it.
  await card.locator('.order-lines').getByText('Bananes plantains').waitFor();
  // A new order is accepted (or refused) first; the buyer then reads that it is being prepared.
  assert.ok(await card.getByRole('button', { name: 'Refuser' }).isVisible(), 'a farmer who cannot fill it declines');
  await card.getByRole('button', { name: 'Accepter la commande' }).click();
  await card.getByText('Acceptée, en préparation').waitFor();
  await card.getByRole('button', { name: 'Marquer comme expédiée' }).click();
  await card.getByRole('button', { name: 'Marquer comme livrée' }).click();
  await card.getByText('Livrée').waitFor();
  for (let tries = 0; ; tries++) {
    const seen = await api(`/orders/${order.id}`, { token: buyer.token });
    if (seen.body.data.status === 'delivered') break;
    assert.ok(tries < 50, "the farmer's steps reach the server");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // The delivered order is in the farmer's earnings (a ledger entry).
  await farmer.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await farmer.getByRole('navigation').getByRole('button', { name: 'Revenus' }).click();
  await farmer
    .locator('.order-lines li', { hasText: `Commande n° ${order.id}` })
    .getByText('4,90')
    .waitFor();
  // On a 360 px phone, in Kiswahili too, no figure is broken inside a number ("US$ 263.2 / 3").
  await farmer.goto(`${env.server.origin}/dashboard?section=earnings&lng=sw`);
  await farmer.locator('#earnings-title', { hasText: 'Mapato' }).waitFor();
  await farmer.locator('.stat-card', { hasText: 'Umepata' }).waitFor();
  const broken = await farmer.evaluate(() =>
    [...document.querySelectorAll('.stat-value')].flatMap((value) => {
      const text = value.firstChild;
      const pieces = [];
      for (const match of text.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        if (range.getClientRects().length > 1) pieces.push(match[0]);
      }
      return pieces;
    }),
  );
  assert.deepEqual(broken, [], 'each amount on one line');

  // The buyer's dashboard counts it; then the order, delivered, with the timeline.
  await page.goto(`${env.server.origin}/dashboard?lng=en`);
  await page.locator('.stat-card', { hasText: 'Items bought' }).getByText('1', { exact: true }).waitFor();
  await page.goto(`${env.server.origin}/orders`);
  await page.reload();
  await page.getByRole('tab', { name: 'Delivered (1)' }).click();
  const mineCard = page.locator('.order-card', { hasText: `Order #${order.id}` });
  await mineCard.getByRole('button', { name: 'Track Order' }).click();
  await mineCard.locator('.timeline').getByText('Shipped').waitFor();
  await mineCard.locator('.timeline').getByText('Delivered').waitFor();

  // A review of what was delivered shows on the product page, with the new rating.
  await mineCard.getByRole('button', { name: 'Leave Review: Plantains' }).click();
  await mineCard.getByLabel('4 stars').check();
  await mineCard.getByLabel('Comment (optional)').fill('Sweet and ripe, well packed.');
  await mineCard.getByRole('button', { name: 'Send review' }).click();
  await mineCard.getByText('Thank you: your review is on the product page.').waitFor();
  await page.goto(`${env.server.origin}/product/${plantains.id}`);
  const reviews = page.locator('.product-reviews');
  await reviews.getByText('Sweet and ripe, well packed.').waitFor();
  await reviews.getByText(/Neema B\./).waitFor();
  await context.close();
  await farmerContext.close();
});

/** A new buyer's order of the demo farmer's new product `title`, to pay by mobile money: its card in the orders. */
async function mobileMoneyOrder(title, price) {
  const farmerToken = await tokenOf('farmer@mavuno.demo');
  await listProduct(farmerToken, title, price);
  const buyer = await newBuyer();
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, buyer.email, buyer.password);
  await toCheckout(page, env.server.origin, title);
  await page.getByLabel('Mobile money').check();
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.getByText('Pay it from your orders with "Pay now".').waitFor();
  await page.getByRole('link', { name: 'View Orders' }).click();
  return { buyer, context, page, card: page.locator('.order-card', { hasText: title }) };
}

test('a buyer pays by mobile money in the simulator and sees the order paid', async () => {
  const { buyer, context, card } = await mobileMoneyOrder('Dried fish', 3);
  await card.locator('h2', { hasText: /^Order #\d+$/ }).waitFor();
  await card.getByText('Not paid yet').waitFor();
  await card.getByRole('button', { name: 'Pay now' }).click();
  // The simulator approves numbers ending in 1 after a few seconds; 099 is Airtel's range
  // in the DRC, chosen from the number.
  await card.getByLabel(/^Number that pays/).fill('+243 990 000 001');
  await card.locator('option[value="AIRTEL_COD"]').waitFor({ state: 'attached' });
  await card.page().waitForFunction(() => document.querySelector('.pay-now select')?.value === 'AIRTEL_COD');
  await card.getByRole('button', { name: 'Pay $7.00' }).click();
  await card.getByText('Check your phone and approve the payment of $7.00.').waitFor();
  await card.getByText('Paid', { exact: true }).waitFor({ timeout: 20_000 });
  const paid = await api('/orders', { token: buyer.token });
  assert.equal(paid.body.data[0].payment_status, 'succeeded');
  await context.close();
});

test("in the demo, an admin answers the payment prompt the payer's phone would show", async () => {
  const { context, card } = await mobileMoneyOrder('Sorghum flour', 2);
  await card.getByRole('button', { name: 'Pay now' }).click();
  await card.getByLabel(/^Number that pays/).fill('+243 990 000 008');
  await card.getByRole('button', { name: 'Pay $6.00' }).click();
  await card.getByText('Check your phone and approve the payment of $6.00.').waitFor();

  const admin = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(admin, env.server.origin, 'admin@mavuno.demo');
  await admin.getByRole('button', { name: 'Open menu' }).click();
  await admin.getByRole('navigation').getByRole('button', { name: 'Orders' }).click();
  const prompt = admin.locator('.order-lines li', { hasText: '243990000008' });
  await prompt.getByRole('button', { name: 'Pay' }).click();
  await prompt.waitFor({ state: 'detached' });
  await card.getByText('Paid', { exact: true }).waitFor({ timeout: 20_000 });
  await context.close();
});

test('a price the farmer changed while the buyer was offline is shown before anything is placed', async () => {
  const farmerToken = await tokenOf('farmer@mavuno.demo');
  const product = await listProduct(farmerToken, 'Cassava leaves', 1);
  const buyer = await newBuyer();

  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, buyer.email, buyer.password);
  await toCheckout(page, env.server.origin, 'Cassava leaves');

  await context.setOffline(true);
  await assertOffline(page);
  const raised = await api(`/farmer/products/${product.id}`, {
    token: farmerToken,
    method: 'PATCH',
    body: { product: { current_price: 1.3 } },
  });
  assert.equal(raised.status, 200);
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.getByRole('link', { name: 'View Orders' }).click();
  await page.getByText('Saved on this phone, waiting to be sent').waitFor();

  await context.setOffline(false);
  const card = page.locator('.order-card', { hasText: 'Not placed' });
  await card.getByText('Cassava leaves: price changed from $1.00 to $1.30').waitFor();
  assert.equal((await api('/orders', { token: buyer.token })).body.data.length, 0, 'nothing placed, nothing charged');
  await card.getByRole('button', { name: "Check my cart at today's prices" }).click();
  await page.locator('.cart-line', { hasText: 'Cassava leaves' }).getByText('$1.30 / kg', { exact: false }).waitFor();
  await context.close();
});

test('after a refused payment, the buyer chooses to pay on delivery and the order keeps its products', async () => {
  const { buyer, context, card } = await mobileMoneyOrder('Millet flour', 4);
  await card.getByRole('button', { name: 'Pay now' }).click();
  // The simulator refuses numbers ending in 2: not enough money.
  await card.getByLabel(/^Number that pays/).fill('+243 990 000 002');
  await card.getByRole('button', { name: 'Pay $8.00' }).click();
  await card.getByText(/^The payment was not made\. We keep your order until/).waitFor({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Pay on delivery instead' }).click();
  await card.getByText(/^The payment was not made/).waitFor({ state: 'detached' });
  await card.getByRole('button', { name: 'Pay now' }).waitFor({ state: 'detached' });
  const orders = await api('/orders', { token: buyer.token });
  const order = orders.body.data.find((o) => o.parts.some((p) => p.lines.some((l) => l.title === 'Millet flour')));
  assert.equal(order.payment_method, 'cash_on_delivery');
  assert.equal(order.status, 'processing', 'the order goes on, with its products');
  await context.close();
});
