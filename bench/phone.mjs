// A phone for the benchmarks: Debian's Chromium through playwright-core at 360 px,
// and a count of what a page downloads over the network (not what the service worker
// answers), by kind, as it arrives compressed.
import { createRequire } from 'node:module';
import { LAUNCH, PHONE } from '../pwa/e2e/harness.mjs';

const require = createRequire(new URL('../pwa/package.json', import.meta.url));
const { chromium } = require('playwright-core');

export { PHONE };

/** Chromium as the browser tests start it, without their per-context proxy: the benches count bytes themselves. */
export function launchChromium() {
  return chromium.launch(LAUNCH);
}

/** Bytes by kind (`kindOf(path)`), filled in as `page` loads; `files` lists each response. */
export async function countBytes(context, page, kindOf) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  const totals = {};
  const files = [];
  cdp.on('Network.responseReceived', ({ requestId, response }) => requests.set(requestId, response));
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const r = requests.get(requestId);
    if (!r || r.fromServiceWorker) return;
    const path = new URL(r.url).pathname;
    const kind = kindOf(path);
    totals[kind] = (totals[kind] ?? 0) + encodedDataLength;
    files.push([kind, path, encodedDataLength]);
  });
  return { totals, files };
}

/** The usual kinds: pictures, the API, and the app itself. */
export const kindOf = (api) => (path) =>
  path.startsWith('/media/') ? 'pictures' : path.startsWith('/api/') ? api : 'app (HTML, JS, CSS)';

/** Issue 19's bad day on `page`: a 400 kbps / 400 ms link and a 4× slower CPU; answers the DevTools session. */
export async function slow3g(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 400,
    downloadThroughput: (400 * 1024) / 8,
    uploadThroughput: (400 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return cdp;
}

/**
 * In the page, as its document changes: when the route's content was first in it, and
 * when the app had taken over (the first screen gone, no spinner in its place), in ms
 * since the epoch. Read by the bench every half second: Playwright's own polling of
 * locators ran on the same 4× slower CPU as the app (~0.25 s of it while the app
 * started, in a profile), and saw the moment late; checking at each frame, with a
 * layout to know what is on screen, cost the app more still. The app draws out of the
 * document until it takes over (lib/first-screen.ts), so in it is on screen.
 * `page.addInitScript(recordMoments, selector)`, then read `window.__moments`.
 */
export function recordMoments(content) {
  const moments = (window.__moments = {});
  const check = () => {
    const now = performance.timeOrigin + performance.now();
    if (!moments.content && document.querySelector(content)) moments.content = now;
    const main = document.querySelector('main');
    if (main && !document.querySelector('[data-first-screen]') && !main.querySelector('.spinner-block')) {
      moments.app = now;
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
}

/** Waits until nothing has crossed a phone's network (the tests' proxy: `context.network`) for `quiet` ms, at most `limit` ms. */
export async function settled(network, quiet = 3000, limit = 60_000) {
  const start = Date.now();
  let last = network.bytes.down + network.bytes.up;
  let since = Date.now();
  while (Date.now() - since < quiet && Date.now() - start < limit) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = network.bytes.down + network.bytes.up;
    if (now !== last) [last, since] = [now, Date.now()];
  }
}
