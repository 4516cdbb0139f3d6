// Forms on a 360 px phone (issue 19): a refused send moves focus to the first field to
// fix, marks each field with its message and keeps what was typed; the terms open from
// the sign-up form without losing it; a forgotten password is reset by an emailed link
// or a code sent by SMS.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, newBuyer, openApplications, serverAndBrowser, signIn, uniquePhone } from './harness.mjs';

const env = serverAndBrowser();

const focusedLabel = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.labels?.[0]?.textContent?.replace('*', '').trim() ?? el?.tagName;
  });

test('an empty sign-up shows what to fix at the first field, in French, and the terms open over the form', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/register?lng=fr`);
  // Scrolled to the button at the bottom, as a thumb would be.
  await page.getByRole('button', { name: 'Créer un compte' }).click();
  assert.equal(await focusedLabel(page), 'Prénom');
  const first = page.getByLabel(/^Prénom/);
  assert.equal(await first.getAttribute('aria-invalid'), 'true');
  const describedBy = await first.getAttribute('aria-describedby');
  assert.match(await page.locator(`#${describedBy.split(' ').at(-1).replace(/:/g, '\\:')}`).textContent(), /prénom/i);
  assert.ok(
    await first.evaluate(
      (el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= innerHeight,
    ),
  );

  // Typed values stay; the next send points at the next problem (the email).
  await first.fill('Amani');
  await page.getByLabel(/^Nom/).first().fill('Bahati');
  await page.getByLabel(/^E-mail/).fill('amani@');
  await page.getByRole('button', { name: 'Créer un compte' }).click();
  assert.equal(await focusedLabel(page), 'E-mail (facultatif)');
  assert.equal(await first.inputValue(), 'Amani');
  assert.equal(await first.getAttribute('aria-invalid'), null, 'a fixed field is no longer marked');

  // The terms open in a dialog; closing it leaves the form as it was.
  await page.getByRole('button', { name: 'conditions d’utilisation et la politique de confidentialité' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conditions d’utilisation et confidentialité' });
  await dialog.getByRole('heading', { name: 'Ce que nous gardons sur vous' }).waitFor();
  await dialog.getByRole('button', { name: 'Fermer' }).click();
  assert.equal(await page.getByLabel(/^E-mail/).inputValue(), 'amani@');
  assert.equal(await page.getByRole('checkbox').isChecked(), false, 'opening the terms does not accept them');
  await context.close();
});

const inView = (locator) =>
  locator.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= innerHeight);

test('checkout without a city, and a new number without the current password, show the field to fix', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const email = await newBuyer(origin, 'checkout-focus');
  await signIn(page, origin, email);
  await page.goto(`${origin}/marketplace?lng=fr`);
  await page.locator('.product-card').first().getByRole('button').first().click();
  await page.goto(`${origin}/checkout?lng=fr`);
  await page.getByLabel(/^Adresse/).fill('Avenue Lumumba 12');
  // The button is at the bottom of the page; the city two screens up.
  await page.getByRole('button', { name: 'Passer la commande' }).click();
  const city = page.getByLabel(/^Ville/);
  assert.equal(await focusedLabel(page), 'Ville');
  assert.equal(await city.getAttribute('aria-invalid'), 'true');
  assert.ok(await inView(city), 'the city is on screen');
  await page.getByRole('alert').filter({ hasText: 'La ville est obligatoire' }).waitFor();
  assert.equal(await page.getByLabel(/^Adresse/).inputValue(), 'Avenue Lumumba 12', 'what was typed stays');

  // The profile: a new number needs the current password, and the form says so at that field.
  await page.goto(`${origin}/profile?lng=en`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel(/^Phone number/).fill(uniquePhone());
  await page.getByRole('button', { name: 'Save changes' }).click();
  const current = page.getByLabel(/^Current password/);
  assert.equal(await focusedLabel(page), 'Current password');
  assert.equal(await current.getAttribute('aria-invalid'), 'true');
  assert.ok(await inView(current));
  await context.close();
});

test('the sign-up success takes the form’s place in view', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/register?lng=en`);
  await page.getByLabel(/^First name/).fill('Amani');
  await page.getByLabel(/^Last name/).fill('Bahati');
  await page.getByLabel(/^Phone number/).fill(uniquePhone());
  await page.getByLabel(/^Country/).selectOption('DRC');
  await page
    .getByLabel(/^Password/)
    .first()
    .fill('harvest-2026');
  await page.getByLabel(/^Confirm password/).fill('harvest-2026');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  const success = page.getByRole('heading', { name: 'Registration successful! Welcome to MAVUNO.' });
  await success.waitFor();
  assert.ok(await inView(success), 'the success message is on screen');
  await context.close();
});

test('an incomplete application moves focus to its first missing answer', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const email = await newBuyer(env.server.origin, 'focus');
  await signIn(page, env.server.origin, email);
  await openApplications(page);
  await page.locator('.section-head .button').click();
  await page.getByLabel(/^How much land/).selectOption('1-2 hectares');
  await page.getByRole('button', { name: 'Submit application' }).click();
  assert.equal(await focusedLabel(page), 'Who works on your farm?');
  assert.equal(await page.getByLabel(/^Who works on your farm/).getAttribute('aria-invalid'), 'true');
  assert.equal(await page.getByLabel(/^How much land/).inputValue(), '1-2 hectares');
  await context.close();
});

test('a forgotten password is reset with the emailed link, once', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const email = await newBuyer(env.server.origin, 'forgot');
  await page.goto(`${env.server.origin}/login?lng=sw`);
  await page.getByRole('link', { name: 'Umesahau nenosiri?' }).click();
  await page.getByRole('button', { name: 'Tuma', exact: true }).click();
  assert.equal(await focusedLabel(page), 'Barua pepe au nambari ya simu');
  await page.getByLabel(/^Barua pepe/).fill(email);
  await page.getByRole('button', { name: 'Tuma', exact: true }).click();
  await page.getByRole('status').filter({ hasText: email }).waitFor();

  // The email went through the outbox; without SMTP it stays there, and the log holds
  // neither the link nor the address.
  const link = env.server
    .emails(email)
    .map((body) => body.match(/http:\/\/[\d.:]+\/reset-password\?token=[0-9a-f]+/)?.[0])
    .find(Boolean);
  assert.ok(link, 'the reset email was sent');
  assert.ok(!env.server.log().includes(new URL(link).searchParams.get('token')), 'the link is not in the log');
  assert.ok(!env.server.log().includes(email), 'nor the address');
  await page.goto(link);
  await page.getByLabel(/^Nenosiri jipya/).fill('mpya-kabisa');
  await page.getByLabel(/^Thibitisha nenosiri/).fill('mpya-kabisa-2');
  await page.getByRole('button', { name: 'Hifadhi nenosiri jipya' }).click();
  assert.match(await focusedLabel(page), /^Thibitisha nenosiri/);
  await page.getByLabel(/^Thibitisha nenosiri/).fill('mpya-kabisa');
  await page.getByRole('button', { name: 'Hifadhi nenosiri jipya' }).click();
  await page.getByRole('heading', { name: 'Nenosiri lako limebadilishwa. Ingia kwa nenosiri jipya.' }).waitFor();
  await signIn(page, env.server.origin, email, 'mpya-kabisa');

  // The same link again: refused, with a way to ask for a new one.
  const again = await context.newPage();
  await again.goto(`${link}&lng=sw`);
  await again.getByLabel(/^Nenosiri jipya/).fill('tena-tena');
  await again.getByLabel(/^Thibitisha nenosiri/).fill('tena-tena');
  await again.getByRole('button', { name: 'Hifadhi nenosiri jipya' }).click();
  await again.getByRole('alert').filter({ hasText: 'Kiungo hiki kimeshatumika' }).waitFor();
  await again.getByRole('link', { name: 'Omba kiungo kipya' }).waitFor();
  await context.close();
});

test('a forgotten password is reset with a code sent by SMS to the phone number', async () => {
  const { origin } = env.server;
  const national = uniquePhone();
  const email = await newBuyer(origin, 'sms', national);
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${origin}/forgot-password?lng=fr`);
  await page.getByLabel(/^E-mail ou numéro de téléphone/).fill(national);
  await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Si un compte utilise le ${national}` })
    .waitFor();

  // Without an SMS provider the message stays in the outbox; the log never holds the code.
  const e164 = `+243${national.slice(1)}`;
  const code = env.server
    .texts(e164)
    .map((text) => text.match(/est (\d{6})\./)?.[1])
    .find(Boolean);
  assert.ok(code, 'the code was texted');
  assert.ok(!env.server.log().includes(code), 'the code is not in the log');
  await page.getByRole('button', { name: 'Enregistrer le nouveau mot de passe' }).click();
  assert.equal(await focusedLabel(page), 'Code reçu par SMS');
  // A wrong code: said once, at the code, with the way to ask for a new code (not a link).
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel(/^Code reçu par SMS/).fill(wrong);
  await page.getByLabel(/^Nouveau mot de passe/).fill('nouveau-depart');
  await page.getByLabel(/^Confirmez le mot de passe/).fill('nouveau-depart');
  await page.getByRole('button', { name: 'Enregistrer le nouveau mot de passe' }).click();
  await page.getByRole('link', { name: 'Demander un nouveau code' }).waitFor();
  const said = await page.locator('.field-error').first().innerText();
  assert.equal(await page.getByText(said, { exact: true }).count(), 1, `"${said}" is said once`);
  await page.getByLabel(/^Code reçu par SMS/).fill(code);
  await page.getByRole('button', { name: 'Enregistrer le nouveau mot de passe' }).click();
  await page
    .getByRole('heading', { name: 'Votre mot de passe a été changé. Connectez-vous avec le nouveau.' })
    .waitFor();
  await signIn(page, origin, email, 'nouveau-depart');
  await context.close();
});

test('the footer leads to the help centre and the terms', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/?lng=fr`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Aide' }).click();
  await page.getByRole('heading', { name: 'Aide', level: 1 }).waitFor();
  await page.getByText('MAVUNO marche-t-il sans réseau ?').click();
  await page.getByText(/attend sur votre téléphone et part tout seul/).waitFor();
  assert.equal(await page.title(), 'Aide · MAVUNO');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Conditions et confidentialité' }).click();
  await page.getByRole('heading', { name: 'Conditions d’utilisation et confidentialité', level: 1 }).waitFor();
  await context.close();
});
