// The first screens and the app must not drift (docs/decisions.md, "First screens"):
// the server writes a public page's first screen with the app's markup in Rust, so
// here each is drawn twice in the same browser, from the HTML alone (no script) and by
// the app, and their structure is compared: a list's first card (tags and classes),
// the header's links and the footer's quick links (addresses and words).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, appStarted, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

/** Tags and classes of the first `selector`, as an indented outline. A link styled as a
 * button and a button are one thing here: the first screen links where the app acts. */
function outline(selector) {
  const walk = (e, depth) => {
    const button = e.classList.contains('button') && (e.tagName === 'A' || e.tagName === 'BUTTON');
    const tag = button ? 'action' : e.tagName.toLowerCase();
    const classes = [...e.classList]
      .sort()
      .map((c) => `.${c}`)
      .join('');
    return `${'  '.repeat(depth)}${tag}${classes}\n${[...e.children].map((c) => walk(c, depth + 1)).join('')}`;
  };
  const found = document.querySelector(selector);
  return found ? walk(found, 0) : null;
}

const links = (selector) =>
  [...document.querySelectorAll(`${selector} a`)].map((a) => `${a.getAttribute('href')} ${a.textContent.trim()}`);

const LISTS = [
  ['/marketplace', '.product-card'],
  ['/training', '.product-card'],
  ['/news', '.post-card'],
  ['/prices?crop=bean', '.price-card'],
];

for (const lng of ['en', 'fr', 'sw']) {
  test(`the first screens and the app draw the same cards, header and footer (${lng})`, async () => {
    const { origin } = env.server;
    const plain = await (await env.browser.newContext({ ...PHONE, javaScriptEnabled: false })).newPage();
    const app = await (await env.browser.newContext(PHONE)).newPage();
    for (const [path, card] of LISTS) {
      const url = `${origin}${path}${path.includes('?') ? '&' : '?'}lng=${lng}`;
      await plain.goto(url);
      const first = {
        card: await plain.evaluate(outline, card),
        header: await plain.evaluate(links, '.site-header nav'),
        footer: await plain.evaluate(links, '.site-footer nav'),
      };
      assert.ok(first.card, `${path}: the first screen shows a card`);
      assert.ok(first.header.length >= 6 && first.footer.length >= 9, `${path}: the links are there to compare`);
      await app.goto(url);
      await appStarted(app);
      // Its first real card: a later page may open from the service worker's copy of the app,
      // which has no first screen and shows skeleton cards while the phone's catalogue opens.
      await app.locator(`${card}:not(.skeleton)`).first().waitFor();
      assert.equal(await app.evaluate(outline, card), first.card, `${path}: the first card`);
      assert.deepEqual(await app.evaluate(links, '.site-header nav'), first.header, `${path}: the header's links`);
      assert.deepEqual(await app.evaluate(links, '.site-footer nav'), first.footer, `${path}: the footer's links`);
    }
    await plain.context().close();
    await app.context().close();
  });
}
