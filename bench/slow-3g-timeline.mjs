// One first visit on issue 19's bad day (bench/slow-3g.mjs: 400 kbps / 400 ms, a 4× slower
// CPU, 360 px), as a timeline: each file the page fetched, when it was asked for and
// when it had come (seconds from the navigation), its bytes on the wire; and when the app
// took over the server's first screen. With `signin`, on /login, the form is filled and
// sent at once, and the timeline runs until the home shows. A diagnosis, not a figure:
// it showed a new phone's sign-in waiting behind the home's 40 small files for one of
// HTTP/1.1's six connections (vite.config.ts, GROUPS).
//
//   node bench/slow-3g-timeline.mjs [path] [signin]   (needs target/release/mavuno and pwa/dist)
import { PHONE, launchChromium, recordMoments, slow3g } from './phone.mjs';
import { WITH_APP, startServer } from './server.mjs';
import { DEMO_PASSWORD } from '../pwa/e2e/harness.mjs';

const path = process.argv[2] ?? '/';
const signIn = process.argv[3] === 'signin';
const server = await startServer(WITH_APP);
const browser = await launchChromium();
const context = await browser.newContext({ ...PHONE, locale: 'fr-CD' });
const page = await context.newPage();
// The moment the app took over, as bench/slow-3g.mjs reads it.
await page.addInitScript(recordMoments, 'main');
const cdp = await slow3g(context, page);
const started = Date.now();
const at = () => ((Date.now() - started) / 1000).toFixed(2);
const asked = new Map();
cdp.on('Network.requestWillBeSent', ({ requestId, request }) => asked.set(requestId, { url: request.url, at: at() }));
cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
  const request = asked.get(requestId);
  if (!request) return;
  const kb = (encodedDataLength / 1024).toFixed(1).padStart(6);
  console.log(`${request.at.padStart(6)} → ${at().padStart(6)} s ${kb} KB  ${new URL(request.url).pathname}`);
});

await page.goto(`${server.origin}${path}`, {
  waitUntil: 'commit',
  timeout: 120_000,
});
if (signIn) {
  await page.locator('main form input:not([disabled])').first().waitFor({ timeout: 120_000 });
  console.log(`${at()} s  the form usable`);
  await page.getByLabel(/^E-mail/).fill('buyer@mavuno.demo');
  await page.getByLabel(/^Mot de passe/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  console.log(`${at()} s  "Se connecter" pressed`);
}
const tookOver = await (
  await page.waitForFunction(() => window.__moments?.app, null, { polling: 500, timeout: 120_000 })
).jsonValue();
console.log(`${((tookOver - started) / 1000).toFixed(2)} s  the app took over the first screen`);
if (signIn) {
  await page.locator('.dashboard-content h2').first().waitFor({ timeout: 120_000 });
  console.log(`${at()} s  the home shows`);
}
await browser.close();
await server.stop();
process.exit(0);
