// A first sign-in on a slow phone (issue 39, point 11): a 360 px phone on a 400 kbps /
// 400 ms link with a 4× slower CPU opens /login, signs in as the demo buyer, and waits
// for the dashboard. Prints when the form could be used (the app had taken over the
// first screen), when the server's answer came, when the home was usable, and the bytes
// at the phone's network (the tests' proxy); then the same on the phone that has signed
// in before (signed out, in again). Median of `runs` fresh phones.
//
//   node bench/sign-in.mjs [runs]        (needs target/release/mavuno and pwa/dist)
import { DEMO_PASSWORD, PHONE, appStarted, launchProfile, startServer } from '../pwa/e2e/harness.mjs';
import { slow3g } from './phone.mjs';

const runs = Number(process.argv[2] ?? 3);
const server = await startServer();

/** One sign-in from /login: [form usable, answer received, home usable] in ms, and the bytes. */
async function signIn(phone, page) {
  const before = phone.context.network.bytes.down;
  const started = Date.now();
  await page.goto(`${server.origin}/login?lng=fr`, { waitUntil: 'commit', timeout: 120_000 });
  await appStarted(page);
  const usable = Date.now() - started;
  await page.getByLabel(/^E-mail/).fill('buyer@mavuno.demo');
  await page.getByLabel(/^Mot de passe/).fill(DEMO_PASSWORD);
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/users/login'), { timeout: 120_000 });
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await answered;
  const answer = Date.now() - started;
  await page.locator('.dashboard-topbar h1').waitFor({ timeout: 120_000 });
  await page.locator('.dashboard-content h2').first().waitFor({ timeout: 120_000 });
  const home = Date.now() - started;
  return { usable, answer, home, bytes: phone.context.network.bytes.down - before };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const first = [];
const again = [];
for (let i = 0; i < runs; i++) {
  const phone = await launchProfile({ ...PHONE, locale: 'fr-CD' });
  const page = phone.context.pages()[0] ?? (await phone.context.newPage());
  await slow3g(phone.context, page);
  first.push(await signIn(phone, page));
  // Signed out, then in again on the same phone: its service worker has the app.
  await page.evaluate(() => ['token', 'mavuno.user'].forEach((key) => localStorage.removeItem(key)));
  again.push(await signIn(phone, page));
  await phone.close();
}
await server.stop();

const row = (label, list) =>
  console.log(
    `${label.padEnd(26)} ${(median(list.map((r) => r.usable)) / 1000).toFixed(2).padStart(6)} s ` +
      `${(median(list.map((r) => r.answer)) / 1000).toFixed(2).padStart(6)} s ` +
      `${(median(list.map((r) => r.home)) / 1000).toFixed(2).padStart(6)} s ` +
      `${(median(list.map((r) => r.bytes)) / 1024).toFixed(1).padStart(7)} KB`,
  );
console.log(`Sign-in on slow 3G (400 kbps / 400 ms, 4x CPU), median of ${runs}:`);
console.log('                           form   answer     home    bytes');
row('fresh phone', first);
row('phone that signed in before', again);
process.exit(0);
