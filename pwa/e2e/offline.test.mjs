// The offline promise, with the network really cut (network.mjs): once a phone has
// visited, every public page opens with no network at all, in the reader's language,
// starting with `/`, the address the home-screen icon opens; and a screen whose code
// comes over a link that carries nothing says so, then gives up and tries again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEMO_PASSWORD,
  PHONE,
  appStarted,
  assertOffline,
  controlledByServiceWorker,
  launchProfile,
  serverAndBrowser,
} from './harness.mjs';

const env = serverAndBrowser();

const ROUTES = [
  '/',
  '/index.html',
  '/marketplace',
  '/training',
  '/news',
  '/prices',
  '/about',
  '/programs',
  '/contact',
  '/help',
  '/terms',
  '/login',
  '/register',
  '/forgot-password',
  '/cart',
  '/product/1',
  '/course/1',
  '/news/1',
];

/** Forms that need the network (signing in and up, a new password): not in the install;
 * offline, on a phone that never opened them, they say so in the reader's language. */
const NEED_THE_NETWORK = new Set(['/login', '/register', '/forgot-password']);

const LANGUAGES = [
  { lng: 'fr', locale: 'fr-CD', notHere: 'Pas encore sur ce téléphone' },
  { lng: 'sw', locale: 'sw-KE', notHere: 'Bado haipo kwenye simu hii' },
  { lng: 'en', locale: 'en-US', notHere: 'Not on this phone yet' },
];

for (const { lng, locale, notHere } of LANGUAGES) {
  test(`after one visit, / and every public page open offline (${lng})`, async () => {
    const { origin } = env.server;
    const phone = await launchProfile({ ...PHONE, locale });
    const page = phone.context.pages()[0] ?? (await phone.context.newPage());
    await page.goto(`${origin}/`);
    await controlledByServiceWorker(page);
    await appStarted(page);

    await phone.context.setOffline(true);
    for (const route of ROUTES) {
      const response = await page.goto(`${origin}${route}`).catch((error) => error);
      assert.ok(!(response instanceof Error), `${route} opens offline (${response?.message?.split('\n')[0]})`);
      const heading = page.locator('main h1, main h2').first();
      await heading.waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), lng, `${route} in ${lng}`);
      // Its words came with it: the language's catalogue was kept on the phone too.
      assert.doesNotMatch(await heading.innerText(), /^[a-z_]+(\.[a-z_]+)+$/, `${route}: words, not a key`);
      assert.equal(
        (await heading.innerText()) === notHere,
        NEED_THE_NETWORK.has(route),
        `${route}: ${await heading.innerText()}`,
      );
    }
    await assertOffline(page);
    await phone.close();
  });
}

/**
 * The demo buyer signs in on a phone that has visited once, its link slowed by
 * `slow(network)` once the sign-in form is open. The signed-in screens are not in a
 * visitor's install: their code and words are fetched now, over that link.
 */
async function firstSignIn(slow) {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/?lng=en`);
  await controlledByServiceWorker(page);
  await page.goto(`${env.server.origin}/login?lng=en`);
  slow(context.network);
  await page.getByLabel(/^Email/).fill('buyer@mavuno.demo');
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return { context, page, pressed: Date.now() };
}

test('a first sign-in whose screens do not come over a link that carries nothing says so, and opens on "Try again"', async () => {
  // Their connections stay open and silent.
  const { context, page } = await firstSignIn((network) =>
    network.stall(/^GET \/assets\/(dashboard-page|_signed-in-words)/),
  );
  // The sign-in form stays on screen while the home comes: it says why,
  await page.getByText('Opening the page: it is still coming over the network.').waitFor();
  assert.ok(context.network.stalls > 0, "the home's files were asked for");
  // then gives up (30 s of silence) rather than leaving the person on the form for ever,
  await page.getByRole('heading', { name: 'The page did not come' }).waitFor({ timeout: 45_000 });
  // and once data flows, "Try again" opens the home, signed in.
  context.network.unstall();
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('heading', { name: 'Welcome back, Grace' }).waitFor();
  await context.close();
});

test('a first sign-in whose screens come slowly, their bytes still flowing, waits for them: nothing is given up', async () => {
  // The dashboard's code (~12 KB) comes 300 bytes a second: longer in all than the 30 s of
  // silence after which a file is given up, but never silent for long.
  const { context, page, pressed } = await firstSignIn((network) =>
    network.trickle(/^GET \/assets\/dashboard-page-[\w-]+\.js/, { bytes: 300, everyMs: 1000 }),
  );
  await page.getByText('Opening the page: it is still coming over the network.').waitFor();
  await page.getByRole('heading', { name: 'Welcome back, Grace' }).waitFor({ timeout: 90_000 });
  const waited = (Date.now() - pressed) / 1000;
  assert.ok(waited > 35, `the code came slower than the limit, or this test shows nothing (${waited} s)`);
  assert.equal(await page.getByRole('heading', { name: 'The page did not come' }).count(), 0);
  context.network.unstall();
  await context.close();
});
