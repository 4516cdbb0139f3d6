// A first sign-in on a new phone, from the server's first screen of /login while the app's
// code is still on its way (lib/first-screen.ts, lib/early-sign-in.ts): sent at the press,
// its answer said at once, the app opening at the home or saying the no again, once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEMO_PASSWORD, PHONE, appStarted, holdBackApp, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

/**
 * A new phone's /login in French, its app's code held back until `release()`: the
 * first screen's form (`early`), and the sign-ins sent (`signIns`).
 */
async function signInScreen() {
  const context = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
  const { page, release } = await holdBackApp(context, { firstScript: true });
  const signIns = [];
  page.on('request', (request) => request.url().includes('/users/login') && signIns.push(request.url()));
  await page.goto(`${env.server.origin}/login?lng=fr`, { waitUntil: 'commit' });
  return { context, page, release, signIns, early: page.locator('[data-first-screen] form') };
}

test('on a new phone the sign-in leaves at the press of the first screen’s button, and the app opens at the home', async () => {
  const { context, page, release, signIns, early } = await signInScreen();
  await early.getByLabel(/^E-mail/).fill('buyer@mavuno.demo');
  await early.getByLabel(/^Mot de passe/).fill(DEMO_PASSWORD);
  await early.getByRole('button', { name: 'Se connecter' }).click();
  await early.getByRole('button', { name: 'Connexion...' }).waitFor();
  // The server's yes, said while the app's code has not come.
  await early.getByRole('status').getByText("Vous êtes connecté. Votre accueil s'ouvre").waitFor();
  assert.deepEqual(
    signIns.map((url) => new URL(url).pathname),
    ['/api/v1/users/login'],
  );
  assert.equal(new URL(page.url()).search, '?lng=fr', 'the form never leaves as a plain form');
  release();
  await appStarted(page);
  // In the language the address named.
  await page.locator('.dashboard-topbar h1').getByText('Tableau de bord').waitFor();
  assert.equal(new URL(page.url()).pathname, '/dashboard');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
  assert.equal(signIns.length, 1, 'not sent again by the app');
  await context.close();
});

test('a blank name or a wrong password pressed in the first screen is said at once, again by the app, sent once, and can be corrected', async () => {
  const { context, page, release, signIns, early } = await signInScreen();
  // Spaces for a name pass the browser's own check, not the app's: said in its words, nothing sent.
  await early.getByLabel(/^E-mail/).fill('   ');
  await early.getByLabel(/^Mot de passe/).fill('not-the-password');
  await early.getByRole('button', { name: 'Se connecter' }).click();
  await early.getByRole('alert').getByText("Indiquez l'e-mail ou le numéro de téléphone de votre compte.").waitFor();
  assert.deepEqual(signIns, []);
  await early.getByLabel(/^E-mail/).fill('buyer@mavuno.demo');
  await early.getByRole('button', { name: 'Se connecter' }).click();
  // Said while the app's code has not come, and the form is the person's again.
  const refused = 'E-mail, numéro de téléphone ou mot de passe incorrect';
  await early.getByRole('alert').getByText(refused).waitFor();
  assert.equal(await early.getByRole('button', { name: 'Se connecter' }).isEnabled(), true);
  release();
  await appStarted(page);
  const form = page.locator('main form');
  await form.getByRole('alert').getByText(refused).waitFor();
  assert.equal(await form.getByLabel(/^E-mail/).inputValue(), 'buyer@mavuno.demo', 'what was typed stays');
  assert.equal(signIns.length, 1, 'the app took the first screen’s answer');
  await form.getByLabel(/^Mot de passe/).fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Se connecter' }).click();
  await page.locator('.dashboard-topbar h1').waitFor();
  assert.equal(signIns.length, 2);
  await context.close();
});

test('"Log in to enrol" on a course’s first screen signs in and comes back to the course', async () => {
  const { origin } = env.server;
  const course = (await (await fetch(`${origin}/api/v1/courses`)).json()).data[0];
  const context = await env.browser.newContext(PHONE);
  // The app's code held back: the link and the sign-in form are the server's.
  const { page, release } = await holdBackApp(context, { firstScript: true });
  await page.goto(`${origin}/course/${course.id}?lng=en`, { waitUntil: 'commit' });
  await page.locator('[data-first-screen]').getByRole('link', { name: 'Log in to enrol' }).click();
  await page.waitForURL(`${origin}/login?next=/course/${course.id}`);
  const early = page.locator('[data-first-screen] form');
  await early.getByLabel(/^Email/).fill('buyer@mavuno.demo');
  await early.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await early.getByRole('button', { name: 'Sign in' }).click();
  release();
  await appStarted(page);
  await page.waitForURL(`${origin}/course/${course.id}`);
  await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
  await context.close();
});
