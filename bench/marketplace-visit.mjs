// What a phone downloads on its first visit to /marketplace until the
// products show, by kind (app code, catalogue pull, pictures), as it arrives
// compressed; then what the service worker fetches in the background to make
// the app work offline. Uses Debian's Chromium through playwright-core.
//
//   node bench/marketplace-visit.mjs [origin]     (start a server with --demo first)
import { PHONE, countBytes, kindOf, launchChromium } from './phone.mjs';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';

const browser = await launchChromium();
const context = await browser.newContext(PHONE);
const page = await context.newPage();
const { totals, files: all } = await countBytes(context, page, kindOf('catalogue (API)'));
const files = all.filter(([kind]) => kind.startsWith('app')).map(([, path, bytes]) => [path, bytes]);

const started = performance.now();
await page.goto(`${origin}/marketplace?lng=en`);
await page.getByText(/^Showing \d+ of \d+ products$/).waitFor();
await page.waitForFunction(() => [...document.querySelectorAll('.product-card img')].filter((img) => img.getBoundingClientRect().top < innerHeight).every((img) => img.complete));
const shownMs = performance.now() - started;
await browser.close();

// What the service worker then downloads in the background (its precache list), compressed.
const sw = await (await fetch(`${origin}/sw.js`)).text();
const precached = [...sw.matchAll(/url:"([^"]+)"/g)].map((m) => `/${m[1].replace(/^\//, '')}`);
let precacheBytes = 0;
for (const path of precached) {
  const response = await fetch(origin + path, { headers: { 'Accept-Encoding': 'br' } });
  precacheBytes += Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
console.log(`first visit to /marketplace, until the first cards and their pictures show (${shownMs.toFixed(0)} ms here):`);
for (const [kind, bytes] of Object.entries(totals)) console.log(`  ${kind}: ${kb(bytes)}`);
for (const [path, bytes] of files.sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`      ${kb(bytes).padStart(9)}  ${path}`);
console.log(`  total: ${kb(sum(totals))}`);
console.log(`then the service worker, in the background, for offline use: ${precached.length} files, ${kb(precacheBytes)}`);
