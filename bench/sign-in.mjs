// A first sign-in on a slow phone (issue 39, point 11): a 360 px phone on a 400 kbps /
// 400 ms link with a 4× slower CPU opens /login, signs in as the demo buyer, and waits
// for the dashboard. Prints when the form could be used (its fields enabled: on a new
// phone, the server's first screen once the page's first script runs), when "Se
// connecter" was pressed, when the server's answer came, when the home was usable, how
// long the person waited after pressing, and the bytes at the phone's network (the
// tests' proxy); then the same on the phone that has signed in before (signed out, in
// again, once the first has finished downloading, in a page opened anew as from the
// home screen's icon). Twice: typed at once (a password manager, or a robot), and typed as a person
// does on a phone (~0.2 s a key). Median of `runs` fresh phones.
//
//   node bench/sign-in.mjs [runs]        (needs target/release/mavuno and pwa/dist)
import { DEMO_PASSWORD, PHONE, launchProfile } from '../pwa/e2e/harness.mjs';
import { settled, slow3g } from './phone.mjs';
import { WITH_APP, startServer } from './server.mjs';

const runs = Number(process.argv[2] ?? 3);
const server = await startServer(WITH_APP);

/** A person's pace on a phone's keyboard, between two keys. */
const KEY_MS = 200;

/** The form usable, and the home usable (its heading and its first section's). */
const FORM = 'main form input:not([disabled])';
const HOME = ['.dashboard-topbar h1', '.dashboard-content h2'];

/**
 * When each of `selectors` was first in the page, as the page saw its document change (in
 * ms since the epoch): Playwright's own polling of a locator, under a 4× slower CPU, saw
 * it up to ~0.4 s late, and a robot's typing then began late too; checking at each frame,
 * with a layout to know what is on screen, cost the app itself. The app draws out of the
 * document until it takes over a first screen (lib/first-screen.ts), so in it is on screen.
 */
function recordShown(selectors) {
  const shown = (window.__shown = {});
  const check = () => {
    for (const selector of selectors) {
      if (!(selector in shown) && document.querySelector(selector))
        shown[selector] = performance.timeOrigin + performance.now();
    }
    if (Object.keys(shown).length === selectors.length) observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
}
/** Once `selector` is in the page: when it was, in ms since the epoch. */
const shown = async (page, selector) =>
  (
    await page.waitForFunction((s) => window.__shown?.[s], selector, {
      polling: 'raf',
      timeout: 120_000,
    })
  ).jsonValue();

/** One sign-in from /login: [form usable, pressed, answer received, home usable] in ms, and the bytes. */
async function signIn(phone, page, typing) {
  const before = phone.context.network.bytes.down;
  await page.addInitScript(recordShown, [FORM, ...HOME]);
  const started = Date.now();
  await page.goto(`${server.origin}/login?lng=fr`, {
    waitUntil: 'commit',
    timeout: 120_000,
  });
  const usable = (await shown(page, FORM)) - started;
  const type = async (field, text) => {
    if (typing === 'person') await field.pressSequentially(text, { delay: KEY_MS });
    else await field.fill(text);
  };
  await type(page.getByLabel(/^E-mail/), 'buyer@mavuno.demo');
  await type(page.getByLabel(/^Mot de passe/), DEMO_PASSWORD);
  const pressed = Date.now() - started;
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/users/login'), { timeout: 120_000 });
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await answered;
  const answer = Date.now() - started;
  const home = Math.max(...(await Promise.all(HOME.map((selector) => shown(page, selector))))) - started;
  return {
    usable,
    pressed,
    answer,
    home,
    bytes: phone.context.network.bytes.down - before,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = {
  fresh: { robot: [], person: [] },
  again: { robot: [], person: [] },
};
for (let i = 0; i < runs; i++) {
  for (const typing of ['robot', 'person']) {
    const phone = await launchProfile({ ...PHONE, locale: 'fr-CD' });
    const page = phone.context.pages()[0] ?? (await phone.context.newPage());
    await slow3g(phone.context, page);
    rows.fresh[typing].push(await signIn(phone, page, typing));
    // Signed out, then in again on the same phone, later: its service worker has the app
    // and the signed-in screens (fetched after the first sign-in, which must not be counted
    // in the second).
    await settled(phone.context.network);
    await page.evaluate(() => ['token', 'mavuno.user'].forEach((key) => localStorage.removeItem(key)));
    // Opened anew, as from the home screen's icon: no page of the day before to unload.
    await page.close();
    const again = await phone.context.newPage();
    await slow3g(phone.context, again);
    rows.again[typing].push(await signIn(phone, again, typing));
    await phone.close();
  }
}
await server.stop();

const s = (ms) => `${(ms / 1000).toFixed(2).padStart(6)} s`;
const row = (label, list) => {
  const m = (pick) => median(list.map(pick));
  console.log(
    `${label.padEnd(36)} ${s(m((r) => r.usable))} ${s(m((r) => r.pressed))} ${s(m((r) => r.answer))} ` +
      `${s(m((r) => r.home))} ${s(m((r) => r.home - r.pressed))} ${(m((r) => r.bytes) / 1024).toFixed(1).padStart(7)} KB`,
  );
};
console.log(`Sign-in on slow 3G (400 kbps / 400 ms, 4x CPU), median of ${runs}:`);
console.log('                                       form  pressed   answer     home   waited    bytes');
row('fresh phone, typed at once', rows.fresh.robot);
row('fresh phone, typed by a person', rows.fresh.person);
row('signed in before, typed at once', rows.again.robot);
row('signed in before, typed by a person', rows.again.person);
process.exit(0);
