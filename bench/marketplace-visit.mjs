// What a phone downloads on its first visit to /marketplace until the
// products show, by kind (app code, catalogue pull, pictures), as it arrives
// compressed; then what the service worker fetches in the background to make
// the app work offline. Uses Debian's Chromium through playwright-core.
//
//   node bench/marketplace-visit.mjs [origin]     (start a server with --demo first)
import { createRequire } from 'node:module';

const require = createRequire(new URL('../pwa/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const origin = process.argv[2] ?? 'http://127.0.0.1:8080';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Network.enable');
const requests = new Map();
const totals = { page: {}, worker: {} };
let phase = 'page';
cdp.on('Network.responseReceived', ({ requestId, response, type }) => requests.set(requestId, { url: response.url, type, fromWorker: response.fromServiceWorker }));
cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
  const r = requests.get(requestId);
  if (!r || r.fromWorker) return;
  const path = new URL(r.url).pathname;
  const kind = path.startsWith('/media/') ? 'pictures' : path.startsWith('/api/') ? 'catalogue (API)' : 'app (HTML, JS, CSS, fonts, icons)';
  totals[phase][kind] = (totals[phase][kind] ?? 0) + encodedDataLength;
});

const started = performance.now();
await page.goto(`${origin}/marketplace?lng=en`);
await page.getByText(/^Showing \d+ of \d+ products$/).waitFor();
await page.waitForFunction(() => [...document.querySelectorAll('.product-card img')].filter((img) => img.getBoundingClientRect().top < innerHeight).every((img) => img.complete));
const shownMs = performance.now() - started;
phase = 'worker';
await page.evaluate(() => navigator.serviceWorker.ready);
await page.waitForTimeout(3000);
await browser.close();

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
console.log(`first visit to /marketplace, until the first cards and their pictures show (${shownMs.toFixed(0)} ms here):`);
for (const [kind, bytes] of Object.entries(totals.page)) console.log(`  ${kind}: ${kb(bytes)}`);
console.log(`  total: ${kb(sum(totals.page))}`);
console.log(`then the service worker, in the background, for offline use: ${kb(sum(totals.worker))}`);
