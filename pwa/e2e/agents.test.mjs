// A field agent visits farmers with no signal and fills their applications
// (issue: admin review, user management, field agents).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PHONE,
  assertOffline,
  controlledByServiceWorker,
  fillApplication,
  serverAndBrowser,
  signIn,
  uniquePhone,
  ussd,
} from './harness.mjs';

const env = serverAndBrowser();

async function openSection(page, name) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name }).click();
}

/** The agent's Farmers section saved on the phone, then opened again from scratch with no signal. */
async function inTheField(context, page) {
  await openSection(page, 'Farmers');
  await page.getByText(/^Saved on this phone for visits without a signal/).waitFor();
  await context.setOffline(true);
  await assertOffline(page);
  await page.reload();
  await openSection(page, 'Farmers');
}

test('an agent fills an application offline for a farmer and it arrives after reconnecting', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'agent@mavuno.demo');
  await controlledByServiceWorker(page);
  await inTheField(context, page);
  await page.getByLabel('Search').fill('grace rusizi');
  const card = page.locator('.person-card', { hasText: 'Grace Uwimana' });
  await card.waitFor();
  assert.equal(await page.locator('.person-card').count(), 1, 'the saved list filters by name and place');
  await card.getByRole('button', { name: 'New application' }).click();
  await page.getByText('Application for Grace Uwimana').waitFor();
  await fillApplication(page);
  await page.getByRole('button', { name: 'Submit application' }).click();
  await page.getByText('Offline · waiting to send: 1').waitFor();

  await openSection(page, 'Applications');
  const application = page.locator('.application-card', { hasText: 'For Grace Uwimana' });
  await application.getByText('Saved on this phone, waiting to be sent').waitFor();

  await context.setOffline(false);
  await page.getByText('Synced').waitFor();
  await application.getByText('Saved on this phone, waiting to be sent').waitFor({ state: 'detached' });
  const mine = await page.evaluate(async (url) => {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return (await response.json()).data;
  }, `${origin}/api/v1/farmer/farmer_survey_forms`);
  const filled = mine.filter((a) => a.user.email === 'buyer@mavuno.demo');
  assert.equal(filled.length, 1, 'sent once');
  assert.equal(filled[0].created_by.email, 'agent@mavuno.demo');
  assert.equal(filled[0].status, 'pending');
  assert.equal(filled[0].cooperative_name, 'Umoja wa Kabare');

  // Back at Grace's card, the agent is warned that a second application would be refused.
  await openSection(page, 'Farmers');
  await page.getByLabel('Search').fill('grace');
  await card.getByText(/is waiting for a decision: a second one will be refused/).waitFor();

  // Grace sees the application made for her on her own phone.
  const grace = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(grace, origin, 'buyer@mavuno.demo');
  await openSection(grace, 'Applications');
  await grace.locator('.application-card .badge', { hasText: 'Pending' }).waitFor();
});

/** The value of the dashboard home's figure called `label`. */
async function figure(page, label) {
  const card = page.locator('.stat-card', { has: page.locator('.stat-label', { hasText: label }) });
  return Number(await card.locator('.stat-value').innerText());
}

test('an agent registers a person offline and files their application; both arrive once', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'agent@mavuno.demo');
  await controlledByServiceWorker(page);
  await page.getByText(/^From this phone · last synced/).waitFor();
  const [visited, recorded] = [await figure(page, 'People visited'), await figure(page, 'Applications recorded')];
  await inTheField(context, page);
  await page.getByRole('button', { name: 'Register a person' }).click();
  // What is missing is said before anything is queued; a number that cannot be read too.
  await page.getByRole('button', { name: 'Register and fill their application' }).click();
  await page.getByRole('alert').filter({ hasText: 'First name is required' }).waitFor();
  await page.getByLabel(/^First name/).fill('Furaha');
  await page.getByLabel(/^Last name/).fill('Mapendo');
  await page.getByLabel(/^Phone number/).fill('12345');
  await page.getByLabel(/^Country/).selectOption('DRC');
  await page.getByLabel('Village or place').fill('Kavumu');
  await page.getByRole('button', { name: 'Register and fill their application' }).click();
  await page.getByRole('alert').filter({ hasText: 'Please enter a valid phone number for your country' }).waitFor();
  const phone = uniquePhone();
  await page.getByLabel(/^Phone number/).fill(phone);
  await page.getByRole('button', { name: 'Register and fill their application' }).click();

  await page.getByText('Application for Furaha Mapendo').waitFor();
  // The registration is confirmed above the form, in view with the form's heading.
  const note = page.getByRole('status').filter({ hasText: 'Furaha Mapendo is registered on this phone' });
  await note.waitFor();
  assert.ok(await note.isVisible());
  const heading = await page.locator('#survey-form-title').boundingBox();
  assert.ok(heading && heading.y >= 0, 'the form is shown from its heading');
  await fillApplication(page);
  await page.getByRole('button', { name: 'Submit application' }).click();
  await page.getByText('Offline · waiting to send: 2').waitFor();
  await openSection(page, 'Farmers');
  const card = page.locator('.person-card', { hasText: 'Furaha Mapendo' });
  await card.getByText('Registered on this phone, waiting to be sent').waitFor();
  assert.match(await card.innerText(), new RegExp(`${phone} · Kavumu`));
  await openSection(page, 'Applications');
  await page.locator('.application-card', { hasText: 'For Furaha Mapendo' }).waitFor();

  await context.setOffline(false);
  await page.getByText('Synced').waitFor();
  const get = (path) =>
    page.evaluate(async (url) => {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
      return (await response.json()).data;
    }, `${origin}/api/v1${path}`);
  const e164 = `+243${phone.slice(1)}`;
  const registered = (await get('/agent/people')).filter((p) => p.phone_number === e164);
  assert.equal(registered.length, 1, 'one account for the number');
  assert.deepEqual([registered[0].first_name, registered[0].email, registered[0].location], ['Furaha', null, 'Kavumu']);
  const filed = (await get('/farmer/farmer_survey_forms')).filter((a) => a.user_id === registered[0].id);
  assert.equal(filed.length, 1, 'one application');
  assert.equal(filed[0].status, 'pending');

  // The saved list holds the person once, as the server knows them, without a refresh by
  // hand; their application waits, so a second one is not offered.
  await openSection(page, 'Farmers');
  await page.getByLabel('Search').fill(phone.slice(1));
  await card.getByText('Registered on this phone, waiting to be sent').waitFor({ state: 'detached' });
  await card.getByText(/Applications you filled: 1/).waitFor();
  await card.getByText(/is waiting for a decision: a second one will be refused/).waitFor();
  assert.equal(await card.getByRole('button', { name: 'New application' }).count(), 0);
  assert.equal(await page.locator('.person-card').count(), 1);

  // The home's figures count the new person and their application.
  await openSection(page, 'Dashboard');
  await page.getByText(/^From this phone · last synced/).waitFor();
  assert.deepEqual(
    [await figure(page, 'People visited'), await figure(page, 'Applications recorded')],
    [visited + 1, recorded + 1],
  );
  await context.close();
});

test('an agent finishes the application a person began on a basic phone; a farmer is offered none', async () => {
  const { origin } = env.server;
  // A new number joins by USSD and answers the first two questions, then hangs up.
  const phone = `+243${uniquePhone().slice(1)}`;
  assert.match(await ussd(env.server, phone, ['1', 'Neema', 'Wabiwa', '1', '2', '1']), /^END Bienvenue Neema/);
  assert.match(await ussd(env.server, phone, ['1', '1', '2']), /^CON 3\/19 /);

  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'agent@mavuno.demo');
  await openSection(page, 'Farmers');
  await page.getByLabel('Search').fill('Neema Wabiwa');
  const card = page.locator('.person-card', { hasText: 'Neema Wabiwa' });
  await card.getByText('Started an application themselves and not sent it yet.').waitFor();
  await card.getByRole('button', { name: 'Finish their application' }).click();
  await page.getByText('Application for Neema Wabiwa').waitFor();
  // What was answered on the basic phone is there.
  assert.equal(await page.getByLabel(/^How much land/).inputValue(), 'Less than 1 hectare');
  assert.equal(await page.getByLabel(/^Who works on your farm/).inputValue(), 'With family');
  await fillApplication(page);
  await page.getByRole('button', { name: 'Submit application' }).click();
  // Once it reaches the server, the basic phone's menu says it waits for review.
  for (let tries = 0; ; tries++) {
    if (/^END Votre demande attend/.test(await ussd(env.server, phone, ['1']))) break;
    assert.ok(tries < 50, 'the application sent from the app reaches the server');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // A farmer has been approved already: no application is offered for them.
  await openSection(page, 'Farmers');
  await page.getByLabel('Search').fill('Amani');
  const farmer = page.locator('.person-card', { hasText: 'Farmer' }).first();
  await farmer.waitFor();
  assert.equal(await farmer.getByRole('button', { name: 'New application' }).count(), 0);
  await context.close();
});
