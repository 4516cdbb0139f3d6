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

const LANGUAGES = [
  { lng: 'fr', locale: 'fr-CD' },
  { lng: 'sw', locale: 'sw-KE' },
  { lng: 'en', locale: 'en-US' },
];

for (const { lng, locale } of LANGUAGES) {
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
    }
    await assertOffline(page);
    await phone.close();
  });
}
