// axe-core on the screens a person meets first: no serious or critical problems.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, audit, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();

/** Boxes and round choices drawn under 24 px (WCAG 2.2, 2.5.8: too small for a thumb). */
const smallTargets = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('input[type=checkbox], input[type=radio]')]
      .map((input) => [input, input.getBoundingClientRect()])
      .filter(([, box]) => box.width > 0 && (box.width < 24 || box.height < 24))
      .map(([input, box]) => `${input.name || input.id}: ${box.width}×${box.height} px`),
  );

for (const language of ['en', 'fr']) {
  test(`login, register, profile and dashboard have no serious accessibility problems (${language})`, async () => {
    const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
    const page = await context.newPage();
    const problems = [];
    for (const path of ['/login', '/register', '/', '/contact']) {
      await page.goto(`${env.server.origin}${path}?lng=${language}`);
      await page.locator('main h1').first().waitFor();
      problems.push(...(await audit(page)).map((p) => `${path}: ${p}`));
    }
    await signIn(page, env.server.origin, 'buyer@mavuno.demo');
    await page.goto(`${env.server.origin}/dashboard?lng=${language}`);
    await page.locator('.dashboard-topbar h1').waitFor();
    problems.push(...(await audit(page)).map((p) => `/dashboard: ${p}`));
    await page.locator('.dashboard-topbar button').first().click();
    await page.locator('.sidebar nav button').nth(1).click();
    await page.locator('.section-head .button').click();
    await page.locator('.survey-form').waitFor();
    problems.push(...(await audit(page)).map((p) => `/dashboard applications form: ${p}`));
    await page.goto(`${env.server.origin}/profile?lng=${language}`);
    await page.locator('.profile-view').waitFor();
    problems.push(...(await audit(page)).map((p) => `/profile: ${p}`));
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('the admin and field agent screens have no serious accessibility problems', async () => {
  const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  const section = async (name) => {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation').getByRole('button', { name }).click();
  };
  await signIn(page, env.server.origin, 'superadmin@mavuno.demo');
  await section('Applications');
  await page.locator('.data-table').waitFor();
  problems.push(...(await audit(page)).map((p) => `admin applications: ${p}`));
  await page.getByRole('button', { name: 'Review' }).first().click();
  await page.getByRole('dialog').waitFor();
  problems.push(...(await audit(page)).map((p) => `decision dialog: ${p}`));
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await section('Users');
  await page.locator('.data-table').waitFor();
  await page.getByRole('button', { name: 'View' }).first().click();
  await page.getByRole('dialog').getByText('Changes to role and status').waitFor();
  problems.push(...(await audit(page)).map((p) => `admin user details: ${p}`));
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  // The demo buyer's orders, filtered by a stat card, and one order's timeline.
  await section('Orders');
  await page.locator('.data-table').waitFor();
  await page.getByRole('button', { name: /Delivered$/ }).click();
  // The filtered list replaces the whole one once it arrives.
  await page
    .waitForFunction(() => document.querySelectorAll('.data-table tbody tr').length === 2, null, { timeout: 10_000 })
    .catch(() => {});
  assert.equal(
    await page.locator('.data-table tbody tr').count(),
    2,
    "two demo orders are delivered: the buyer's first and a cooperative's coffee lot",
  );
  await page.getByRole('button', { name: 'View' }).first().click();
  await page.getByRole('dialog').locator('.timeline').getByText('Delivered').first().waitFor();
  problems.push(...(await audit(page)).map((p) => `admin order details: ${p}`));
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  // Products: each product's name under the section's heading, no level skipped (axe's
  // heading-order, which the audit's serious-only filter leaves out).
  await section('Products');
  await page.locator('.admin-product').first().waitFor();
  problems.push(...(await audit(page)).map((p) => `admin products: ${p}`));
  const skipped = await page.evaluate(() => {
    const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    return levels.filter((level, i) => i > 0 && level > levels[i - 1] + 1).length;
  });
  assert.equal(skipped, 0, 'admin products: no heading level skipped');
  await section('Blog management');
  await page.locator('.admin-blogs .data-table').waitFor();
  problems.push(...(await audit(page)).map((p) => `admin blogs: ${p}`));
  await page.getByRole('button', { name: 'Edit' }).first().click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Content' }).waitFor();
  problems.push(...(await audit(page)).map((p) => `blog form: ${p}`));

  const agent = await context.newPage();
  await signIn(agent, env.server.origin, 'agent@mavuno.demo');
  await agent.getByRole('button', { name: 'Open menu' }).click();
  await agent.getByRole('navigation').getByRole('button', { name: 'Farmers' }).click();
  await agent.locator('.person-card').first().waitFor();
  problems.push(...(await audit(agent)).map((p) => `agent farmers: ${p}`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the marketplace, a product, the cart and the farmer product form have no serious accessibility problems', async () => {
  const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  for (const language of ['en', 'sw']) {
    await page.goto(`${env.server.origin}/marketplace?lng=${language}`);
    await page.locator('.product-card').first().waitFor();
    problems.push(...(await audit(page)).map((p) => `/marketplace (${language}): ${p}`));
  }
  await page.locator('.product-card h2 a').first().click();
  await page.locator('.product-page h1').waitFor();
  problems.push(...(await audit(page)).map((p) => `/product: ${p}`));
  await page.locator('.product-info .actions .button').first().click();
  await page.goto(`${env.server.origin}/cart`);
  await page.locator('.cart-line').first().waitFor();
  problems.push(...(await audit(page)).map((p) => `/cart: ${p}`));

  await signIn(page, env.server.origin, 'farmer@mavuno.demo');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Products' }).click();
  await page.locator('.product-row').first().waitFor();
  problems.push(...(await audit(page)).map((p) => `farmer products: ${p}`));
  await page.getByRole('button', { name: 'New product' }).click();
  await page.locator('.product-form').waitFor();
  problems.push(...(await audit(page)).map((p) => `product form: ${p}`));
  problems.push(...(await smallTargets(page)).map((p) => `product form: ${p}`));

  // A buyer's checkout and orders, in French.
  const buyerContext = await env.browser.newContext({ ...PHONE, bypassCSP: true });
  const buyer = await buyerContext.newPage();
  await signIn(buyer, env.server.origin, 'furaha@mavuno.demo');
  await buyer.goto(`${env.server.origin}/marketplace?lng=fr`);
  await buyer.locator('.product-card h2 a').first().click();
  await buyer.locator('.product-page h1').waitFor();
  await buyer.locator('.product-info .actions .button').first().click();
  await buyer.goto(`${env.server.origin}/checkout`);
  await buyer.locator('.checkout-page h1').waitFor();
  problems.push(...(await audit(buyer)).map((p) => `/checkout: ${p}`));
  problems.push(...(await smallTargets(buyer)).map((p) => `/checkout: ${p}`));
  await buyer.goto(`${env.server.origin}/orders`);
  await buyer.locator('.orders-page .empty-state, .orders-page .order-card').first().waitFor();
  problems.push(...(await audit(buyer)).map((p) => `/orders: ${p}`));
  assert.deepEqual(problems, []);
  await context.close();
  await buyerContext.close();
});

test('the training screens have no serious accessibility problems', async () => {
  const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  // The demo farmer is enrolled in the French marketing course (the second demo course).
  await signIn(page, env.server.origin, 'farmer@mavuno.demo');
  for (const path of ['/training', '/course/2', '/learn/2', '/certificates/AAAA-BBBB-CCCC']) {
    await page.goto(`${env.server.origin}${path}?lng=fr`);
    await page.locator('main h1').first().waitFor();
    await page.locator('.spinner').waitFor({ state: 'detached' });
    problems.push(...(await audit(page)).map((p) => `${path}: ${p}`));
  }
  // A quiz after answering: the right and wrong answers marked.
  await page.goto(`${env.server.origin}/learn/2?lng=fr`);
  await page
    .getByRole('button', { name: /Vérifiez vos connaissances/ })
    .first()
    .click();
  for (const radio of await page.getByRole('radio').all()) if (!(await radio.isChecked())) await radio.check();
  await page.getByRole('button', { name: 'Vérifier mes réponses' }).click();
  await page.locator('.quiz-result').waitFor();
  problems.push(...(await audit(page)).map((p) => `/learn/2 quiz: ${p}`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the news screens have no serious accessibility problems', async () => {
  const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  await page.goto(`${env.server.origin}/news?lng=sw`);
  await page.locator('main h1').first().waitFor();
  await page.locator('.post-card').first().waitFor();
  problems.push(...(await audit(page)).map((p) => `/news: ${p}`));
  await page.locator('.post-card h2 a').first().click();
  await page.locator('.article-content').waitFor();
  problems.push(...(await audit(page)).map((p) => `${new URL(page.url()).pathname}: ${p}`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('controls scrolled up behind the slid-away header are neither covered nor reachable behind it (WCAG 2.2)', async () => {
  const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/prices?lng=fr`);
  await page.locator('main h1').waitFor();
  // The filters folded under the board, opened: their selects and button pass under the header.
  await page.evaluate(() => document.querySelectorAll('main details').forEach((d) => (d.open = true)));
  const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  const problems = [];
  for (let y = 0; y <= height; y += 40) {
    await page.evaluate((y) => window.scrollTo(0, y), y);
    await page.waitForTimeout(300);
    problems.push(...(await audit(page, { rules: ['target-size'] })).map((p) => `at ${y} px: ${p}`));
  }
  assert.deepEqual(problems, []);
  // Slid away, the header's links are out of the tab order; scrolling up brings them back.
  assert.equal(await page.locator('.site-header').evaluate((h) => getComputedStyle(h).visibility), 'hidden');
  await page.evaluate(() => window.scrollBy(0, -80));
  await page.waitForFunction(() => getComputedStyle(document.querySelector('.site-header')).visibility === 'visible');
  await context.close();
});
