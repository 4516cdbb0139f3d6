// One phone, two people (issue 15, item 4): each account keeps its own queue and
// device id on the phone, so one person's unsent changes wait for them while
// another person signs in, and each change arrives under the right account;
// each person's cart is theirs too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEMO_PASSWORD,
  PHONE,
  assertOffline,
  controlledByServiceWorker,
  fillApplication,
  newBuyer,
  openApplications,
  serverAndBrowser,
  signIn,
} from './harness.mjs';

const env = serverAndBrowser();

async function applicationsOf(origin, email) {
  const login = await fetch(`${origin}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email, password: DEMO_PASSWORD } }),
  });
  const { user } = await login.json();
  const forms = await fetch(`${origin}/api/v1/farmer/farmer_survey_forms`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  return (await forms.json()).data;
}

async function applyOffline(page, context) {
  await openApplications(page);
  await page.getByText('No applications yet').waitFor();
  await context.setOffline(true);
  await assertOffline(page);
  await page.getByRole('button', { name: 'New application' }).first().click();
  await fillApplication(page);
  await page.getByRole('button', { name: 'Submit application' }).click();
  await page.getByText('Offline · waiting to send: 1').waitFor();
}

async function signOutFromDashboard(page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.locator('#dashboard-nav').getByRole('button', { name: 'Sign out' }).click();
}

test('two people on one phone: each one’s offline change waits for them and arrives under their account', async () => {
  const { origin } = env.server;
  const [amani, neema] = [await newBuyer(origin, 'amani'), await newBuyer(origin, 'neema')];
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();

  await signIn(page, origin, amani);
  await controlledByServiceWorker(page);
  // Amani also puts something in the cart.
  await page.goto(`${origin}/marketplace?lng=en`);
  await page.locator('.product-card a').first().click();
  await page.locator('.product-page').getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
  await page.goto(`${origin}/dashboard`);
  await applyOffline(page, context);
  // Signing out with a change unsent says where it stays.
  await signOutFromDashboard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign out with changes not sent?' });
  await dialog.getByText('1 change is not sent yet. It stays on this phone').waitFor();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/dashboard'));

  // Back online, someone else signs in on the same phone: nothing of Amani's shows or goes.
  await context.setOffline(false);
  await signIn(page, origin, neema);
  await page.goto(`${origin}/marketplace?lng=en`);
  await page.getByRole('link', { name: 'Cart', exact: true }).waitFor();
  await page.goto(`${origin}/dashboard`);
  await applyOffline(page, context);
  await context.setOffline(false);
  await page.getByText('Synced').waitFor();
  assert.equal((await applicationsOf(origin, neema)).length, 1, "Neema's application is hers");
  assert.equal((await applicationsOf(origin, amani)).length, 0, "Amani's waits on the phone");

  // Nothing waiting: signing out asks nothing.
  await signOutFromDashboard(page);
  await page.waitForURL((url) => !url.pathname.startsWith('/dashboard'));
  assert.equal(await page.getByRole('dialog').count(), 0);

  // Amani signs in again: the change kept for them is sent, once, as theirs.
  await signIn(page, origin, amani);
  await openApplications(page);
  await page.getByRole('heading', { name: 'Application #1' }).waitFor();
  await page.getByText('Synced').waitFor();
  await page.goto(`${origin}/marketplace?lng=en`);
  await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
  const amanis = await applicationsOf(origin, amani);
  assert.equal(amanis.length, 1);
  assert.equal(amanis[0].cooperative_name, 'Umoja wa Kabare');
  assert.equal((await applicationsOf(origin, neema)).length, 1);
  await context.close();
});
