// The platform's settings (docs/settings.md): a super admin changes the hours, the phone
// number and the ways of paying; the footer, the Contact page and checkout follow, offline
// too; an admin reads them without changing them (issue: dashboards, Settings).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEMO_PASSWORD, PHONE, controlledByServiceWorker, newBuyer, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();

async function openSettings(page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Platform settings' }).waitFor();
}

test('a super admin changes the hours and the ways of paying; every page and checkout follow', async () => {
  const { origin } = env.server;
  const boss = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(boss, origin, 'superadmin@mavuno.demo');
  await openSettings(boss);
  const hours = boss.getByRole('group', { name: 'Working hours' });
  // A text left empty is refused in words, and what was typed stays.
  await hours.getByLabel(/^French/).fill('');
  await boss.getByLabel(/^Phone number/).fill('0991 234 567');
  await boss.getByLabel(/^USSD code/).fill('384#');
  await boss.getByRole('button', { name: 'Save the settings' }).click();
  await hours.getByText('Write it in each of the three languages').waitFor();
  await boss.locator('.field-error', { hasText: 'Write the code as people dial it, e.g. *384*12#' }).waitFor();
  assert.equal(await boss.getByLabel(/^Phone number/).inputValue(), '0991 234 567');
  assert.equal(await boss.getByLabel(/^USSD code/).inputValue(), '384#');
  // The code the SMS name when they send people to the phone menu.
  await boss.getByLabel(/^USSD code/).fill('*384*12#');

  await hours.getByLabel(/^French/).fill('Du lundi au samedi, de 7 h à 18 h');
  const drc = boss.getByRole('group', { name: 'DR Congo' });
  await drc.getByLabel('Cash on delivery').uncheck();
  await drc.getByLabel('Mobile money: Vodacom M-Pesa').uncheck();
  await boss.getByRole('button', { name: 'Save the settings' }).click();
  await boss.getByText('Settings saved.').waitFor();
  // Recorded, with who changed it.
  const history = boss.getByRole('list', { name: 'Changes' });
  await history.getByText('Contact details').waitFor();
  await history.getByText('Ways of paying').waitFor();
  await history.locator('li', { hasText: 'USSD code' }).getByText('*384*12#').waitFor();
  assert.match(await history.locator('li').first().innerText(), /set by Neema Mwamba/);

  // A visitor reading French sees the new hours and number on the Contact page and in the footer.
  const context = await env.browser.newContext(PHONE);
  const visitor = await context.newPage();
  await visitor.goto(`${origin}/contact?lng=fr`);
  await controlledByServiceWorker(visitor);
  const where = visitor.locator('.page.contact');
  await where.getByText('Du lundi au samedi, de 7 h à 18 h').waitFor();
  await where.getByRole('link', { name: '+243991234567' }).waitFor();
  await visitor.locator('footer').getByText('Du lundi au samedi, de 7 h à 18 h').waitFor();
  // And what a basic phone dials, a link that opens the dialer.
  const dial = visitor.locator('footer').getByRole('link', { name: '*384*12#' });
  assert.equal(await dial.getAttribute('href'), 'tel:*384*12%23');
  assert.match(
    await visitor.locator('footer p', { has: visitor.getByRole('link', { name: '*384*12#' }) }).innerText(),
    /Sans smartphone \? Composez \*384\*12#/,
  );
  // The help page's answer for a basic phone names it too.
  await visitor.goto(`${origin}/help?lng=fr`);
  await visitor.getByText('Je n’ai pas de smartphone. Puis-je utiliser MAVUNO ?').click();
  await visitor.getByText(/Composez \*384\*12# pour les prix du marché/).waitFor();
  // Offline, the footer still says so.
  await context.setOffline(true);
  await visitor.goto(`${origin}/about`);
  await visitor.locator('footer').getByText('Du lundi au samedi, de 7 h à 18 h').waitFor();
  await context.setOffline(false);

  // A buyer delivering to the DR Congo is offered mobile money only, and the shipping policy.
  const email = await newBuyer(origin, 'settings');
  const buyer = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(buyer, origin, email, DEMO_PASSWORD);
  await buyer.goto(`${origin}/marketplace?lng=en`);
  await buyer.getByRole('link', { name: 'Mangoes' }).click();
  await buyer.locator('.product-page').getByRole('button', { name: 'Add to Cart' }).click();
  await buyer.getByRole('link', { name: /^Cart, \d+ items?/ }).click();
  await buyer.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await buyer.getByRole('heading', { name: 'Checkout' }).waitFor();
  const payment = buyer.getByRole('group', { name: 'Payment' });
  await payment.getByLabel('Mobile money').waitFor();
  assert.equal(await payment.getByLabel('Cash on delivery').count(), 0);
  assert.equal(await payment.getByLabel('Mobile money').isChecked(), true);
  await buyer.getByText('Shipping policy').click();
  await buyer.getByText('Orders are prepared by the farmer').waitFor();
  // Kenya still offers both.
  await buyer.getByLabel(/^Country/).selectOption('KEN');
  await payment.getByLabel('Cash on delivery').waitFor();

  // An admin reads the settings and their history but cannot change them.
  const admin = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  await openSettings(admin);
  await admin.getByText('Only a super admin can change these settings.').waitFor();
  assert.equal(await admin.getByRole('button', { name: 'Save the settings' }).count(), 0);
  assert.equal(
    await admin
      .getByRole('group', { name: 'Working hours' })
      .getByLabel(/^French/)
      .isDisabled(),
    true,
  );
  await admin.getByRole('list', { name: 'Changes' }).getByText('Ways of paying').waitFor();
});
