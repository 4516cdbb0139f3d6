// What a new person meets on a 360 px phone (issue 19): a first visit on a slow link
// says it is loading rather than "not downloaded", a cold start warns nothing, the
// footer carries the current year, and quick add puts in the minimum order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

test('a first visit on a slow link says the marketplace is loading, then shows it', async () => {
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
  await page.getByText('Loading products...').waitFor();
  assert.equal(await page.getByText(/has not been downloaded to this phone/).count(), 0);
  await page.locator('.product-card').first().waitFor();
  assert.equal(await page.getByText(/has not been downloaded to this phone/).count(), 0);
  assert.deepEqual(
    warnings.filter((w) => /HydrateFallback/.test(w)),
    [],
  );
  await page.getByText(`© ${new Date().getFullYear()} MAVUNO`).waitFor();

  // Quick add puts in the farmer's minimum order (avocados: 5).
  await page.locator('.product-card', { hasText: 'Avocados' }).getByRole('button', { name: 'Add to cart' }).click();
  await page.goto(`${env.server.origin}/cart?lng=en`);
  const line = page.locator('.cart-page').getByRole('group', { name: 'Quantity' }).first();
  assert.equal(await line.locator('output').textContent(), '5');
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
