// The offline promise, with the network really cut (network.mjs): once a phone has
// visited, every public page opens with no network at all, in the reader's language,
// starting with `/`, the address the home-screen icon opens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
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
