// A word typed into the marketplace's first screen on a bad day (issue 74, point 11): a
// fresh 360 px phone on slow 3G (400 kbps, 400 ms) with a 4× slower CPU opens
// /marketplace, and as soon as the server's first screen shows, types a word as a person
// does (a key every 150 ms) without pressing the search key. Prints how long after the
// last key the list showed only what matches (the first screen's own search,
// lib/first-screen.ts, or the app's once it took over), and when the app took over.
// Median of `RUNS` fresh phones.
//
//   node bench/first-search.mjs [runs]   (needs target/release/mavuno and pwa/dist)
import { PHONE, launchChromium, slow3g } from './phone.mjs';
import { WITH_APP, startServer } from './server.mjs';

const runs = Number(process.argv[2] ?? 3);
const server = await startServer(WITH_APP);
const browser = await launchChromium();

async function visit(word, lang) {
  const context = await browser.newContext({ ...PHONE, locale: lang });
  const page = await context.newPage();
  await slow3g(context, page);
  // When the first screen's search asked, and had its answer.
  await page.addInitScript(() => {
    const fetch = window.fetch;
    window.__asked = [];
    window.fetch = (...args) => {
      const at = performance.timeOrigin + performance.now();
      return fetch(...args).then(async (response) => {
        const text = await response.clone().text();
        window.__asked.push([at, performance.timeOrigin + performance.now(), String(args[0]), text.length]);
        return response;
      });
    };
  });
  const started = Date.now();
  await page.goto(`${server.origin}/marketplace`, { waitUntil: 'commit', timeout: 120_000 });
  const field = page.locator('#first-q');
  await field.waitFor({ timeout: 120_000 });
  // Watched in the page (the bench's own polling would run on the phone's slow CPU too):
  // when every card shown names the word, and when the first screen was gone.
  await page.evaluate((word) => {
    const seen = (window.__seen = {});
    const check = () => {
      const now = performance.timeOrigin + performance.now();
      const titles = [...document.querySelectorAll('main .product-card h2')].map((h) => h.textContent ?? '');
      if (!seen.found && titles.length > 0 && titles.every((t) => t.toLowerCase().includes(word))) seen.found = now;
      if (!seen.app && !document.querySelector('[data-first-screen]')) seen.app = now;
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  }, word);
  await field.pressSequentially(word, { delay: 150 });
  const typed = Date.now();
  const seen = await (
    await page.waitForFunction(() => window.__seen.found && window.__seen.app && window.__seen, null, {
      polling: 500,
      timeout: 120_000,
    })
  ).jsonValue();
  const asked = await page.evaluate(() => window.__asked);
  if (process.env.VERBOSE) console.log(asked.map(([from, to, url, n]) => `${url} ${from - typed} → ${to - typed} ms, ${n} B`));
  await context.close();
  return { found: seen.found - typed, app: seen.app - started, before: seen.found < seen.app };
}

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
try {
  for (const [word, lang] of [['beans', 'en'], ['haricot', 'fr-CD']]) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await visit(word, lang));
    const before = results.filter((r) => r.before).length;
    console.log(
      `${lang.padEnd(5)} "${word}" typed without the search key: found ${s(median(results.map((r) => r.found)))} ` +
        `after the last key (${before} of ${runs} before the app took over), app running ` +
        `${s(median(results.map((r) => r.app)))}  (median of ${runs})`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
