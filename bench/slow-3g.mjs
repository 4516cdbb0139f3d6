// A first visit on a bad day (issue 19's profile): a 360 px phone on a 400 kbps /
// 400 ms link with a 4× slower CPU, on a throw-away release server with the demo.
// Prints, for each route, when the first paint happened, when the first contentful
// paint happened, what that paint said, when the route's content showed (the
// first product cards on /marketplace) and when the app had taken over from the
// server's first screen (lib/first-screen.ts). Median of `RUNS` fresh phones.
//
// Also the page's bytes on the wire until the app runs.
//
//   node bench/slow-3g.mjs [runs] [--all]   (needs target/release/mavuno and pwa/dist;
//   --all: every public route, not only /marketplace, / and /news)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PHONE, launchChromium, slow3g } from './phone.mjs';
import { startServer } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 3);
const server = await startServer(['--demo', '--web-dir', join(root, 'pwa/dist')]);
const browser = await launchChromium();

const heading = (page) => page.locator('main h1').first().waitFor({ timeout: 120_000 });
const ROUTES = [
  ['/marketplace', (page) => page.locator('.product-card').first().waitFor({ timeout: 120_000 })],
  ['/', heading],
  ['/news', (page) => page.locator('.post-card').first().waitFor({ timeout: 120_000 })],
  // `--all`: every other public route too.
  ...(process.argv.includes('--all')
    ? ['/training', '/about', '/programs', '/contact', '/help', '/terms', '/login', '/register', '/cart']
        .concat(['/forgot-password', '/product/1', '/course/1', '/news/1'])
        .map((path) => [path, heading])
    : []),
];

async function visit(path, ready, lang) {
  const context = await browser.newContext({ ...PHONE, locale: lang });
  const page = await context.newPage();
  const cdp = await slow3g(context, page);
  // The page's bytes on the wire until the app runs (the service worker's install comes after).
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event) => (bytes += event.encodedDataLength));
  const started = Date.now();
  await page.goto(`${server.origin}${path}`, { waitUntil: 'commit', timeout: 120_000 });
  await ready(page);
  const contentMs = Date.now() - started;
  await page.locator('[data-first-screen]').waitFor({ state: 'detached', timeout: 120_000 });
  await page.locator('main .spinner-block').waitFor({ state: 'detached', timeout: 120_000 });
  const appMs = Date.now() - started;
  const appBytes = bytes;
  const paints = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType('paint').map((p) => [p.name, p.startTime])),
  );
  const navStart = await page.evaluate(() => performance.timeOrigin);
  await context.close();
  // performance.timeOrigin is when the navigation began; `started` is just before it.
  const offset = navStart - started;
  return {
    firstPaint: (paints['first-paint'] ?? NaN) + offset,
    firstContentfulPaint: (paints['first-contentful-paint'] ?? NaN) + offset,
    content: contentMs,
    app: appMs,
    bytes: appBytes,
  };
}

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

try {
  for (const lang of ['fr-CD', 'sw']) {
    for (const [path, ready] of ROUTES) {
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await visit(path, ready, lang));
      const pick = (key) => median(results.map((r) => r[key]));
      console.log(
        `${lang.padEnd(5)} ${path.padEnd(12)} first paint ${s(pick('firstPaint'))}, ` +
          `first contentful paint ${s(pick('firstContentfulPaint'))}, content shown ${s(pick('content'))}, ` +
          `app running ${s(pick('app'))}, ${(pick('bytes') / 1024).toFixed(0)} KB by then  (median of ${runs})`,
      );
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
