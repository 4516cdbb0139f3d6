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
import { PHONE, launchChromium, recordMoments, slow3g } from './phone.mjs';
import { WITH_APP, startServer } from './server.mjs';

const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 3);
const server = await startServer(WITH_APP);
const browser = await launchChromium();

// What shows the route's content (the first product cards on /marketplace).
const ROUTES = [
  ['/marketplace', '.product-card'],
  ['/', 'main h1'],
  ['/news', '.post-card'],
  // `--all`: every other public route too.
  ...(process.argv.includes('--all')
    ? ['/training', '/about', '/programs', '/contact', '/help', '/terms', '/login', '/register', '/cart']
        .concat(['/forgot-password', '/product/1', '/course/1', '/news/1'])
        .map((path) => [path, 'main h1'])
    : []),
];

async function visit(path, content, lang) {
  const context = await browser.newContext({ ...PHONE, locale: lang });
  const page = await context.newPage();
  await page.addInitScript(recordMoments, content);
  const cdp = await slow3g(context, page);
  // The page's bytes on the wire until the app runs (the service worker's install comes after).
  const arrived = [];
  cdp.on('Network.loadingFinished', (event) => arrived.push([Date.now(), event.encodedDataLength]));
  const started = Date.now();
  await page.goto(`${server.origin}${path}`, { waitUntil: 'commit', timeout: 120_000 });
  const moments = await (
    await page.waitForFunction(() => window.__moments?.app && window.__moments, null, {
      polling: 500,
      timeout: 120_000,
    })
  ).jsonValue();
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
    content: moments.content - started,
    app: moments.app - started,
    bytes: arrived.filter(([at]) => at <= moments.app).reduce((sum, [, bytes]) => sum + bytes, 0),
  };
}

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

try {
  for (const lang of ['fr-CD', 'sw']) {
    for (const [path, content] of ROUTES) {
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await visit(path, content, lang));
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
