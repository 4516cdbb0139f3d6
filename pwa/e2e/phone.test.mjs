// What a new person meets on a 360 px phone (issue 19): a first visit on a slow link
// shows the server's first screen, the app says it is loading rather than "not
// downloaded", a cold start warns nothing, the
// footer carries the current year, and quick add puts in the minimum order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEMO_PASSWORD,
  PHONE,
  appStarted,
  fillApplication,
  newBuyer,
  openApplications,
  serverAndBrowser,
  signIn,
} from './harness.mjs';

const env = serverAndBrowser();

test('a first visit on a slow link shows the products from the first HTML, then the app, never "not downloaded"', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const warnings = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  // The first catalogue pull takes its time, as on slow 3G.
  await page.route('**/api/v1/sync/pull**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await route.continue();
  });
  await page.goto(`${env.server.origin}/marketplace?lng=en`);
  await page.locator('[data-first-screen] .product-card').first().waitFor();
  assert.equal(await page.getByText(/has not been downloaded to this phone/).count(), 0);
  await appStarted(page);
  await page.locator('.product-card').first().waitFor();
  assert.equal(await page.getByText(/has not been downloaded to this phone/).count(), 0);
  assert.deepEqual(
    warnings.filter((w) => /HydrateFallback/.test(w)),
    [],
  );
  await page.getByText(`© ${new Date().getFullYear()} MAVUNO`).waitFor();

  // Quick add puts in the farmer's minimum order (avocados: 5).
  await page.locator('.product-card', { hasText: 'Avocados' }).getByRole('button', { name: 'Add to cart' }).click();
  // The toast that says so leaves the header's cart button free to tap at once (the header,
  // slid away while scrolling down to the card, comes back on the way up).
  await page.mouse.wheel(0, -120);
  const cart = page.getByRole('link', { name: /^Cart, \d+ items?$/ });
  await page.locator('.site-header:not(.is-hidden)').waitFor();
  const toast = await page.locator('.toast').boundingBox();
  const button = await cart.boundingBox();
  assert.ok(toast.y >= button.y + button.height || toast.y + toast.height <= button.y, 'the toast is off the cart');
  await cart.click({ timeout: 2000 });
  await page.waitForURL(/\/cart/);
  const line = page.locator('.cart-page').getByRole('group', { name: 'Quantity' }).first();
  assert.equal(await line.locator('output').textContent(), '5');
  await context.close();
});

test('the app, opened on another page, says the marketplace is loading while its first pull is on the way', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.route('**/api/v1/sync/pull**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await route.continue();
  });
  await page.goto(`${env.server.origin}/about?lng=en`);
  await appStarted(page);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.locator('#mobile-menu').getByRole('link', { name: 'Marketplace' }).click();
  await page.getByText('Loading products...').waitFor();
  assert.equal(await page.getByText(/has not been downloaded to this phone/).count(), 0);
  await page.locator('.product-card').first().waitFor();
  assert.equal(await page.getByText(/has not been downloaded to this phone/).count(), 0);
  await context.close();
});

test('a first visit that cannot reach the server says the marketplace is not downloaded', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.route('**/api/v1/sync/pull**', (route) => route.abort('internetdisconnected'));
  await page.goto(`${env.server.origin}/marketplace?lng=fr`);
  await page.getByText(/pas encore été téléchargé sur ce téléphone/).waitFor();
  await context.close();
});

test('the first HTML paints a shell in the reader language, and every page has its own title', async () => {
  // Before any script runs (here: none at all), the shell says what is coming, in French.
  const bare = await env.browser.newContext({ ...PHONE, locale: 'fr-CD', javaScriptEnabled: false });
  const still = await bare.newPage();
  const violations = [];
  still.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) violations.push(message.text());
  });
  // (The orders are per person: that page keeps the shell.)
  await still.goto(`${env.server.origin}/orders`);
  await still.getByText('Marché, formations et actualités pour les agriculteurs. Ouverture…').waitFor();
  assert.equal(await still.title(), 'Commandes · MAVUNO');
  assert.equal(await still.locator('html').getAttribute('lang'), 'fr');
  const shell = await still.locator('.boot').boundingBox();
  assert.ok(shell.width <= 360 && shell.height >= 600, 'the shell fills the phone, styled by its inline style');
  // A list's page brings its first screen instead, styled by the inline styles too.
  await still.goto(`${env.server.origin}/marketplace`);
  assert.equal(await still.title(), 'Marché · MAVUNO');
  await still.locator('[data-first-screen] .product-card').first().waitFor();
  assert.equal(
    await still
      .locator('.product-card')
      .first()
      .evaluate((c) => getComputedStyle(c).borderRadius),
    '12px',
  );
  assert.deepEqual(violations, [], 'the inline styles are allowed by their hashes');
  await bare.close();

  // With the app running, each route titles itself, a product by its name, and a change
  // of language retitles the page and is remembered for the server's next first HTML.
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/training?lng=sw`);
  await page.locator('.training .product-card').first().waitFor();
  assert.equal(await page.title(), 'Mafunzo · MAVUNO');
  // Every title a page shows is kept, to see that a product's name never gives way to
  // the generic "Product" while the app reads the product it opens.
  await context.addInitScript(() => {
    const seen = (window.titlesSeen = []);
    new MutationObserver(() => seen.at(-1) !== document.title && seen.push(document.title)).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  await page.goto(`${env.server.origin}/marketplace?lng=en`);
  await page.locator('.product-card', { hasText: 'Avocados' }).getByRole('link').first().click();
  await page.getByRole('heading', { level: 1, name: /Avocados/ }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.match(await page.title(), /^Avocados.* · MAVUNO$/);
  const titles = await page.evaluate(() => window.titlesSeen);
  const named = titles.findIndex((title) => title.startsWith('Avocados'));
  assert.ok(named >= 0, titles.join(' | '));
  assert.deepEqual(
    titles.slice(named).filter((title) => !title.startsWith('Avocados')),
    [],
    'once named, the page keeps its name',
  );
  const cookies = await context.cookies();
  assert.equal(cookies.find((c) => c.name === 'mavuno_lng')?.value, 'en');
  await context.close();
});

test('a success toast shows above the dialog it came from, and deleting an account sits apart from editing', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const email = await newBuyer(env.server.origin, 'toast');
  await signIn(page, env.server.origin, 'admin@mavuno.demo');
  await page.goto(`${env.server.origin}/dashboard?lng=fr`);
  await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Utilisateurs' }).click();
  await page.getByLabel('Rechercher').fill(email);
  await page.locator('tr', { hasText: email }).getByRole('button', { name: 'Voir', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Statut').selectOption('inactive');
  await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Modifications enregistrées' });
  await toast.waitFor();
  // Drawn on top (not under the dialog's backdrop), and its close button works.
  const box = await toast.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 360, 'the toast fits the screen');
  const onTop = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x, y)?.closest('.toast') !== null,
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  assert.ok(onTop, 'the toast is above the dialog');
  await toast.getByRole('button', { name: 'Fermer' }).click();
  await toast.waitFor({ state: 'detached' });

  // The profile's Edit and Delete account are far apart, Delete under its own heading.
  await page.goto(`${env.server.origin}/profile`);
  const edit = await page.getByRole('button', { name: 'Modifier' }).boundingBox();
  const remove = page
    .getByRole('region', { name: 'Supprimer votre compte' })
    .getByRole('button', { name: 'Supprimer le compte' });
  const removeBox = await remove.boundingBox();
  assert.ok(removeBox.y - (edit.y + edit.height) > 200, 'Delete account is well below Edit');
  await context.close();
});

test('an approval reaches the open app within seconds, and the new farmer is shown the next step', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  // What the server told the app over its listening sockets, from the DevTools protocol:
  // Playwright's frame events are attached once a socket is reported, after a first frame
  // sent at once (a socket opened just after the approval) may have come.
  const told = [];
  const listening = new Set();
  const cdp = await context.newCDPSession(page);
  cdp.on('Network.webSocketCreated', ({ requestId, url }) => {
    if (new URL(url).pathname === '/api/v1/sync/listen') listening.add(requestId);
  });
  cdp.on('Network.webSocketFrameReceived', ({ requestId, response }) => {
    if (listening.has(requestId)) told.push(response.payloadData);
  });
  const open = new Set();
  cdp.on(
    'Network.webSocketHandshakeResponseReceived',
    ({ requestId }) => listening.has(requestId) && open.add(requestId),
  );
  cdp.on('Network.webSocketClosed', ({ requestId }) => open.delete(requestId));
  await cdp.send('Network.enable');
  const email = await newBuyer(env.server.origin, 'listening');
  await signIn(page, env.server.origin, email);
  await openApplications(page);
  await page.getByRole('button', { name: 'New application' }).first().click();
  await fillApplication(page);
  await page.getByRole('button', { name: 'Submit application' }).click();
  await page.getByText('Pending', { exact: true }).first().waitFor();

  // The admin approves on another device; this app stays open and is not touched.
  const api = (path, init = {}) =>
    fetch(`${env.server.origin}/api/v1${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
    }).then((r) => r.json());
  const login = await api('/users/login', {
    method: 'POST',
    body: JSON.stringify({ user: { email: 'admin@mavuno.demo', password: DEMO_PASSWORD } }),
  });
  const admin = { authorization: `Bearer ${login.user.token}` };
  let mine;
  for (let i = 0; i < 50 && !mine; i++) {
    const list = await api(`/admin/surveys?q=${encodeURIComponent(email)}`, { headers: admin });
    mine = list.data.find((s) => s.status === 'pending');
    if (!mine) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.ok(mine, 'the application reached the server');
  // The app has caught up and listens (else it would learn of the approval from the pull
  // that follows its push, not from the server telling it).
  for (let i = 0; i < 50 && open.size === 0; i++) await page.waitForTimeout(100);
  assert.ok(open.size > 0, 'the app listens');
  const decided = Date.now();
  await api(`/admin/surveys/${mine.id}`, {
    method: 'PATCH',
    headers: admin,
    body: JSON.stringify({ farmer_survey_form: { status: 'approved' } }),
  });
  await page.getByText('Approved', { exact: true }).first().waitFor({ timeout: 8_000 });
  assert.ok(Date.now() - decided < 8_000, 'seen within seconds, without a reload');
  assert.ok(
    told.some((payload) => typeof JSON.parse(payload).version === 'number'),
    `the app heard of it over a WebSocket: ${told}`,
  );

  // The farmer's home says what to do next, and leads there.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Dashboard' }).click();
  await page.getByRole('heading', { name: 'Welcome, farmer: your application is approved' }).waitFor();
  await page.getByRole('button', { name: 'Publish your first product' }).click();
  await page.getByRole('button', { name: 'New product' }).waitFor();
  await context.close();
});
