// A person's first steps, as they do them on a phone: sign up, sign in, the
// dashboard, the profile, three languages, sign out; guards and errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  DEMO_PASSWORD,
  PHONE,
  appStarted,
  assertOffline,
  controlledByServiceWorker,
  launchProfile,
  serverAndBrowser,
  signIn,
  uniqueEmail,
  uniquePhone,
} from './harness.mjs';

const avatarFile = fileURLToPath(new URL('../public/icons/icon-192.png', import.meta.url));
const env = serverAndBrowser();

test('sign up, sign in, edit the profile, switch languages, sign out', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const { origin } = env.server;
  const email = uniqueEmail('amani');
  const phone = uniquePhone();

  await page.goto(`${origin}/register`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').filter({ hasText: 'Password must be at least 6 characters long' }).waitFor();
  assert.match(await page.getByRole('alert').innerText(), /First name is required/);
  await page.getByLabel(/^Password/).fill('secret123');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').filter({ hasText: 'Passwords do not match' }).waitFor();

  await page.getByLabel(/^First name/).fill('Amani');
  await page.getByLabel(/^Last name/).fill('Bahati');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Phone number/).fill(phone);
  await page.getByLabel(/^Country/).selectOption('DRC');
  await page.getByLabel(/^Password/).fill('secret123');
  await page.getByLabel(/^Confirm password/).fill('secret123');
  await page.locator('input[type=file]').setInputFiles(avatarFile);
  await page.getByText('icon-192.png').waitFor();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').filter({ hasText: 'Please accept the terms' }).waitFor();
  assert.equal(await page.getByLabel(/^First name/).inputValue(), 'Amani', 'what was typed is kept');
  await page.getByLabel(/I accept the terms/).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Registration successful! Welcome to MAVUNO.').waitFor();
  await page.getByRole('link', { name: 'Continue now' }).click();
  await page.waitForURL(`${origin}/`);
  // The address changes at once; the home is on screen once its code has come (a menu
  // opened before would close as the page changes).
  await page.getByRole('heading', { name: 'From your field to fair markets' }).waitFor();

  // Sign out from the account menu, then sign in again.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name: 'Log in' }).click();
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill('secret123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/dashboard`);
  await page.getByRole('heading', { name: 'Welcome back, Amani' }).waitFor();
  assert.equal(await page.locator('.site-header').count(), 0, 'no public header in the dashboard');

  // The profile section: edit and save.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('heading', { name: 'Amani Bahati' }).waitFor();
  assert.match(await page.locator('.profile-view').innerText(), new RegExp(`\\+243${phone.slice(1)}`));
  assert.ok(await page.locator('.profile-head img.avatar').count(), 'the uploaded avatar is shown');
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel(/^Last name/).fill('Bahati-Mushi');
  await page.getByLabel(/^Location/).fill('Kabare, South Kivu');
  const sms = page.getByLabel('Send me SMS about my applications, orders and payments');
  assert.equal(await sms.isChecked(), true, 'SMS updates are on for a new account');
  await sms.uncheck();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Profile updated successfully!').waitFor();
  await page.getByRole('heading', { name: 'Amani Bahati-Mushi' }).waitFor();
  assert.match(await page.locator('.profile-view').innerText(), /Kabare, South Kivu/);
  // The form opens again with the account the server answered: SMS updates off.
  await page.getByRole('button', { name: 'Edit' }).click();
  assert.equal(await sms.isChecked(), false, 'the server kept the choice');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // A new password needs the current one (a borrowed phone is not enough): a wrong
  // one is refused in words and what was typed stays; the right one changes it.
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByLabel(/^Current password/).fill('not-mine');
  await page.getByLabel(/^New password/).fill('secret456');
  await page.getByLabel(/^Confirm/).fill('secret456');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('alert').filter({ hasText: 'Your current password is not correct.' }).waitFor();
  assert.equal(await page.getByLabel(/^New password/).inputValue(), 'secret456');
  await page.getByLabel(/^Current password/).fill('secret123');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Password changed. Other devices have been signed out.').waitFor();

  // French at once (the open section stays), and kept across a reload.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByLabel('Language').selectOption('fr');
  await page.getByRole('heading', { level: 1, name: 'Profil' }).waitFor();
  // The panel may re-render a moment after the heading: wait for its words, not just read them.
  await page.locator('.profile-view').getByText('Membre depuis').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
  await page.reload();
  await page.getByRole('heading', { name: 'Bon retour, Amani' }).waitFor();

  // Kiswahili, kept across a reload.
  await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await page.getByLabel('Langue').selectOption('sw');
  await page.getByRole('heading', { name: 'Karibu tena, Amani' }).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Karibu tena, Amani' }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'sw');

  // Sign out; the dashboard is closed again.
  await page.getByRole('button', { name: 'Fungua menyu' }).click();
  await page.getByRole('button', { name: 'Toka' }).click();
  await page.waitForURL(`${origin}/`);
  // Home first, then the session goes (lib/session.tsx).
  await page.waitForFunction(() => localStorage.getItem('token') === null);
  await page.goto(`${origin}/dashboard`);
  await page.waitForURL(`${origin}/login`);
  await context.close();
});

test('a person signs up in Kiswahili with a phone number and no email, then signs in with the number', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const { origin } = env.server;
  const phone = uniquePhone();
  const fill = async (target) => {
    await target.getByLabel(/^Jina la kwanza/).fill('Neema');
    await target.getByLabel(/^Jina la ukoo/).fill('Mushi');
    await target.getByLabel(/^Namba ya simu/).fill(phone);
    await target.getByLabel(/^Nchi/).selectOption('DRC');
    await target.getByLabel(/^Nenosiri/).fill('mavuno-2026');
    await target.getByLabel(/^Thibitisha nenosiri/).fill('mavuno-2026');
    await target.getByLabel(/^Ninakubali/).check();
    await target.getByRole('button', { name: 'Fungua akaunti' }).click();
  };
  await page.goto(`${origin}/register?lng=sw`);
  assert.equal(await page.getByLabel('Barua pepe (si lazima)').inputValue(), '', 'the email is left empty');
  await fill(page);
  await page.getByText('Usajili umefanikiwa! Karibu MAVUNO.').waitFor();
  await context.close();

  // The same number cannot make a second account; what was typed stays.
  const again = await env.browser.newContext(PHONE);
  const second = await again.newPage();
  await second.goto(`${origin}/register?lng=sw`);
  await fill(second);
  await second.getByRole('alert').filter({ hasText: 'Nambari hii ya simu tayari imesajiliwa' }).waitFor();
  assert.equal(await second.getByLabel(/^Namba ya simu/).inputValue(), phone);

  // Signing in with the number written the international way.
  await second.goto(`${origin}/login?lng=sw`);
  await second.getByLabel(/^Barua pepe au nambari ya simu/).fill(`+243 ${phone.slice(1)}`);
  await second.getByLabel(/^Nenosiri/).fill('mavuno-2026');
  await second.getByRole('button', { name: 'Ingia', exact: true }).click();
  await second.waitForURL(`${origin}/dashboard`);
  await second.getByRole('heading', { name: 'Karibu tena, Neema' }).waitFor();
  await again.close();
});

test('a guarded route sends a signed-out person to the login page', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  for (const path of ['/profile', '/dashboard', '/orders', '/checkout']) {
    await page.goto(`${env.server.origin}${path}`);
    await page.waitForURL(`${env.server.origin}/login`);
  }
  // replace-redirect: going back does not return to the guarded page.
  await page.goBack();
  assert.notEqual(new URL(page.url()).pathname, '/checkout');
  await context.close();
});

test('a wrong password shows the error in the chosen language', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/login?lng=fr`);
  await page.getByLabel(/^E-mail/).fill('farmer@mavuno.demo');
  await page.getByLabel(/^Mot de passe/).fill('not-the-password');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.getByRole('alert').filter({ hasText: 'E-mail, numéro de téléphone ou mot de passe incorrect' }).waitFor();
  assert.equal(await page.getByLabel(/^E-mail/).inputValue(), 'farmer@mavuno.demo', 'the email is kept');
  await context.close();
});

test("signing in: the home's code comes while the form is filled, and the home follows the server's one answer", async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const asked = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`${env.server.origin}/login`);
  await appStarted(page);
  assert.ok(!asked.some((path) => /\/dashboard-page-[^/]*\.js$/.test(path)), 'not for a visitor who only looks');
  // Filling the form starts it, before "Sign in" is pressed: on a slow link it is
  // most of the wait otherwise.
  const homeCode = page.waitForRequest((request) => /\/assets\/dashboard-page-[^/]*\.js$/.test(request.url()));
  await page.getByLabel(/^Email/).click();
  await homeCode;
  await page.getByLabel(/^Email/).fill('buyer@mavuno.demo');
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  const from = asked.length;
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.dashboard-topbar h1').waitFor();
  // The sign-in answer carries the person: no second round trip for them.
  const api = asked.slice(from).filter((path) => path.startsWith('/api/'));
  assert.equal(api[0], '/api/v1/users/login');
  assert.ok(!api.includes('/api/v1/me'), `asked after signing in: ${api.join(', ')}`);
  await context.close();
});

test('the mobile menu opens, navigates and closes at 360 px', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(env.server.origin);
  const desktopNav = page.locator('.main-nav');
  assert.equal(await desktopNav.isVisible(), false, 'the wide navigation is hidden on a phone');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  await menu.waitFor();
  await menu.getByRole('link', { name: 'Programs' }).click();
  await page.waitForURL(`${env.server.origin}/programs`);
  await page.getByRole('heading', { name: 'Our programs' }).waitFor();
  assert.equal(await menu.count(), 0, 'the menu closes after navigating');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no sideways scrolling (${width}px)`);
  await context.close();
});

test('after one online visit the app opens with the network off', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(env.server.origin);
  await controlledByServiceWorker(page);
  await context.setOffline(true);
  await assertOffline(page);
  await page.reload();
  await page.getByRole('heading', { name: 'From your field to fair markets' }).waitFor();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.locator('#mobile-menu').getByRole('link', { name: 'About' }).click();
  await page.getByRole('heading', { name: 'About MAVUNO' }).waitFor();
  // Signing in needs the network: its page is not in the install, and says so.
  await page.goto(`${env.server.origin}/login`);
  await page.getByRole('alert').filter({ hasText: 'This page is not on this phone yet' }).waitFor();
  // A language whose words never came to this phone: the page stays readable in the one
  // it has, says so, and changes once the network is back.
  await page.goto(`${env.server.origin}/contact?lng=sw`);
  await page.getByRole('heading', { name: 'Get in touch' }).first().waitFor();
  await page.getByText('Kiswahili is not on this phone yet: it comes with the network.').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await context.setOffline(false);
  await page.getByRole('heading', { name: 'Wasiliana nasi' }).first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'sw');
  await context.close();
});

test('a page whose code cannot come says so in the reader’s language, and opens once it can', async () => {
  const context = await env.browser.newContext({ ...PHONE, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/?lng=fr`);
  await appStarted(page);
  // The about page's code does not come: a page never opened on a phone now offline.
  await context.setOffline(true);
  await page.locator('footer a[href="/about"]').first().click();
  await page.getByRole('alert').filter({ hasText: "Cette page n'est pas encore sur ce téléphone" }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/about');
  // Once its code can come, "Try again" opens it.
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Réessayer' }).click();
  await page.getByRole('heading', { name: 'À propos de MAVUNO' }).waitFor();
  await context.close();
});

test("a language chosen while another one's words are missing stands when the network is back", async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/contact?lng=en`);
  await controlledByServiceWorker(page);
  await context.setOffline(true);
  await assertOffline(page);
  await page.goto(`${env.server.origin}/contact?lng=sw`);
  await page.getByText('Kiswahili is not on this phone yet: it comes with the network.').waitFor();
  // The person picks English, the language the phone has, before the network returns.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByLabel('Language').selectOption('en');
  await page.getByRole('button', { name: 'Close menu' }).click();
  await page.getByText('Kiswahili is not on this phone yet').waitFor({ state: 'detached' });
  await context.setOffline(false);
  // A retry of the missing words came 0.1-0.5 s after 'online' and switched the page back.
  await page.waitForTimeout(1500);
  await page.getByRole('heading', { name: 'Get in touch' }).first().waitFor({ timeout: 100 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  // Chosen again with the network, Kiswahili comes in its own words, not the stand-in ones.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByLabel('Language').selectOption('sw');
  await page.getByRole('heading', { name: 'Wasiliana nasi' }).first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'sw');
  await context.close();
});

test('a language chosen over a link that carries nothing is said to be coming, and comes once data flows', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/contact?lng=en`);
  await controlledByServiceWorker(page);
  // Kiswahili's words are not in an English reader's install: asked for now, they hear nothing.
  context.network.stall(/^GET \/assets\/sw-/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByLabel('Language').selectOption('sw');
  await page.getByRole('button', { name: 'Close menu' }).click();
  // Said within seconds, not only once given up (30 s), while the page stays readable.
  await page.getByText('Kiswahili is not on this phone yet: it comes with the network.').waitFor({ timeout: 10_000 });
  assert.ok(context.network.stalls > 0, "Kiswahili's words were asked for");
  await page.getByRole('heading', { name: 'Get in touch' }).first().waitFor();
  // Data flows again, but not on the dead connection: given up, the words are asked for
  // again at another address, and the page changes.
  context.network.unstall();
  await page.getByRole('heading', { name: 'Wasiliana nasi' }).first().waitFor({ timeout: 60_000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'sw');
  await page.getByText('Kiswahili is not on this phone yet').waitFor({ state: 'detached' });
  await context.close();
});

test('a signed-in person stays signed in when the app opens offline', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, 'farmer@mavuno.demo');
  await controlledByServiceWorker(page);
  await context.setOffline(true);
  await assertOffline(page);
  await page.reload();
  await page.getByRole('heading', { name: 'Welcome back, Amani' }).waitFor();
  await context.close();
});

test('the contact form checks every field, keeps what was typed, then sends', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/contact?lng=en`);
  await page.getByLabel(/^Name/).fill('Grace');
  await page.getByLabel(/^Email/).fill('grace@example');
  await page.getByRole('button', { name: 'Send' }).click();
  const alert = page.getByRole('alert');
  await alert.filter({ hasText: 'Please enter a valid email address' }).waitFor();
  assert.match(await alert.innerText(), /Subject is required/);
  assert.equal(await page.getByLabel(/^Name/).inputValue(), 'Grace');
  await page.getByLabel(/^Email/).fill('grace@example.com');
  await page.getByLabel(/^Subject/).fill('Selling coffee');
  await page.getByLabel(/^Message/).fill('How do I list my coffee beans?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Message sent successfully!').waitFor();
  assert.equal(await page.getByLabel(/^Subject/).inputValue(), '', 'the form is cleared after sending');
  await context.close();
});

test('Chromium finds the app installable', async () => {
  const profile = await launchProfile(PHONE);
  const { context } = profile;
  const page = await context.newPage();
  await page.goto(env.server.origin);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, []);
  const manifest = await (await page.request.get(`${env.server.origin}/manifest.webmanifest`)).json();
  assert.ok(manifest.icons.some((icon) => icon.purpose === 'maskable'));
  await profile.close();
});
