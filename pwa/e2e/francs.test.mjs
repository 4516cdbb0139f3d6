// Prices in Congolese francs (issue 19, docs/money.md): a buyer in the DRC sees an
// estimate in francs beside each dollar price, at the rate an admin sets in Settings
// (with its date), on cards, the product page, the cart and offline; a rate saved
// while the buyer's app is open reaches it within seconds; people elsewhere see dollars only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEMO_PASSWORD,
  PHONE,
  assertOffline,
  newBuyer,
  serverAndBrowser,
  signIn,
  uniqueEmail,
  uniquePhone,
} from './harness.mjs';

const env = serverAndBrowser();

/** A card's dollar price and its francs, as numbers. */
const firstCard = (page) =>
  page
    .locator('.product-card')
    .first()
    .evaluate((card) => {
      const digits = (selector) => Number(card.querySelector(selector)?.textContent.replace(/[^\d.]/g, '') ?? NaN);
      return { usd: digits('.price strong'), francs: digits('.francs') };
    });

async function waitForRate(page, rate) {
  await page.waitForFunction((rate) => {
    const card = document.querySelector('.product-card');
    const usd = Number(card?.querySelector('.price strong')?.textContent.replace(/[^\d.]/g, ''));
    const francs = Number(card?.querySelector('.francs')?.textContent.replace(/[^\d]/g, ''));
    return usd > 0 && francs === Math.round(usd * rate);
  }, rate);
}

test('a buyer in the DRC sees francs at the rate the admin sets, at once, and offline', async () => {
  const phone = await env.browser.newContext(PHONE);
  const buyer = await phone.newPage();
  await signIn(buyer, env.server.origin, await newBuyer(env.server.origin, 'francs'));
  await buyer.goto(`${env.server.origin}/marketplace`);
  // The demo's rate: 2,850 francs for a dollar.
  await waitForRate(buyer, 2850);
  const { usd } = await firstCard(buyer);

  const desk = await env.browser.newContext(PHONE);
  const admin = await desk.newPage();
  await signIn(admin, env.server.origin, 'admin@mavuno.demo');
  await admin.getByRole('button', { name: 'Open menu' }).click();
  await admin.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await admin.getByText('In use: 1 US dollar = CDF 2,850').waitFor();
  // A rate that is not a whole number is refused at its field, and what was typed stays.
  const field = admin.getByLabel(/^Congolese francs for 1 US dollar/);
  await field.fill('2 900,50');
  await admin.getByRole('button', { name: 'Save the rate' }).click();
  await admin.getByText('a whole number from 1 to 1,000,000').first().waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal(await field.inputValue(), '2 900,50');
  assert.equal(await admin.evaluate(() => document.activeElement?.labels?.[0]?.textContent.includes('francs')), true);
  await field.fill('3000');
  await admin.getByRole('button', { name: 'Save the rate' }).click();
  await admin.getByText('In use: 1 US dollar = CDF 3,000').waitFor();
  await admin
    .getByText(/set by /)
    .first()
    .waitFor();

  // The buyer's open marketplace follows within seconds (the app listens for changes).
  await waitForRate(buyer, 3000);
  await buyer.locator('.product-card a').first().click();
  await buyer.locator('.rate-note').waitFor();
  const today = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date());
  assert.match(await buyer.locator('.rate-note').textContent(), new RegExp(`CDF\\s3,000 .* the rate of ${today}`));
  await buyer.getByRole('button', { name: 'Add to Cart' }).click();

  // Offline, the rate is still on the phone: the cart's total in francs too.
  await phone.setOffline(true);
  await assertOffline(buyer);
  // The offline note above the page moved it down, and the header slid away: the buyer
  // scrolls up a little to bring it back, as on a phone.
  await buyer.mouse.wheel(0, -200);
  await buyer.getByRole('link', { name: /^Cart, / }).click();
  const total = await buyer.locator('.summary .total dd').textContent();
  const francs = await buyer.locator('.summary .francs-total dd').textContent();
  assert.equal(Number(francs.replace(/[^\d]/g, '')), Math.round(Number(total.replace(/[^\d.]/g, '')) * 3000));
  assert.ok(usd > 0);
  await phone.close();
  await desk.close();
});

test('people outside the DRC see dollars only; a visitor whose phone is in the DRC sees francs', async () => {
  const nairobi = await env.browser.newContext({ ...PHONE, timezoneId: 'Africa/Nairobi', locale: 'sw-KE' });
  const kenyan = await nairobi.newPage();
  await kenyan.goto(`${env.server.origin}/marketplace`);
  await kenyan.locator('.product-card .price strong').first().waitFor();
  assert.equal(await kenyan.locator('.francs').count(), 0);

  const bukavu = await env.browser.newContext({ ...PHONE, timezoneId: 'Africa/Lubumbashi', locale: 'fr-FR' });
  const visitor = await bukavu.newPage();
  await visitor.goto(`${env.server.origin}/marketplace?lng=fr`);
  await visitor.locator('.product-card .francs').first().waitFor();
  assert.match(await visitor.locator('.product-card .francs').first().textContent(), /^≈ [\d\s]+FC$/);

  // An account's country wins over the phone: a buyer from Rwanda in Bukavu sees dollars.
  const email = uniqueEmail('rwanda');
  const user = { first_name: 'Aline', last_name: 'Uwase', email, phone_number: uniquePhone('078'), country: 'RWA' };
  const body = JSON.stringify({ user: { ...user, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD } });
  const made = await fetch(`${env.server.origin}/api/v1/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  assert.equal(made.status, 201);
  await signIn(visitor, env.server.origin, email);
  await visitor.goto(`${env.server.origin}/marketplace`);
  await visitor.locator('.product-card .price strong').first().waitFor();
  assert.equal(await visitor.locator('.francs').count(), 0);
  await nairobi.close();
  await bukavu.close();
});
