// News figures (docs/news.md), on a throw-away release server with the demo: what a
// phone downloads on its first visit to /news and to an article (straight from a
// link), and how much the news keeps on the phone for offline reading (the posts in
// Dexie, the pictures in the service worker's media cache).
//
//   node bench/news.mjs        (needs target/release/mavuno and pwa/dist)
import { PHONE, countBytes, kindOf, launchChromium } from './phone.mjs';
import { WITH_APP, startServer } from './server.mjs';

const server = await startServer(WITH_APP);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const browser = await launchChromium();

/**
 * Opens `path` in a fresh phone and counts what came over the network, by kind, until the
 * app has taken over and `ready`.
 */
async function firstVisit(path, ready) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const { totals } = await countBytes(context, page, kindOf('API (sync pull, post, comments)'));
  const started = performance.now();
  await page.goto(`${server.origin}${path}`);
  // The app's page, not the server's first screen, which shows before the posts are on the phone.
  await page.locator('[data-first-screen]').waitFor({ state: 'detached' });
  await ready(page);
  const ms = performance.now() - started;
  console.log(`first visit to ${path} (${ms.toFixed(0)} ms here):`);
  for (const [kind, bytes] of Object.entries(totals)) console.log(`  ${kind}: ${kb(bytes)}`);
  console.log(`  total: ${kb(Object.values(totals).reduce((a, b) => a + b, 0))}`);
  return { context, page };
}

try {
  const list = await firstVisit('/news?lng=en', async (page) => {
    await page.locator('.post-card').first().waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.post-card img')]
        .filter((img) => img.getBoundingClientRect().top < innerHeight)
        .every((img) => img.complete),
    );
  });
  // What stays on the phone: the posts in Dexie, and the list pictures the page
  // fetches after it shows (immutable: the HTTP cache keeps them, and the service
  // worker's media cache from the next visit on).
  const text = await list.page.evaluate(async () => {
    const name = (await indexedDB.databases()).map((d) => d.name).find((n) => n?.endsWith('-guest'));
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const posts = await new Promise((resolve) => {
      const all = db.transaction('blogs').objectStore('blogs').getAll();
      all.onsuccess = () => resolve(all.result);
    });
    return { count: posts.length, bytes: new Blob([JSON.stringify(posts)]).size };
  });
  const listed = await (await fetch(`${server.origin}/api/v1/blogs?per_page=20`)).json();
  let pictures = 0;
  for (const post of listed) {
    if (post.thumbnail_url) pictures += (await (await fetch(`${server.origin}${post.thumbnail_url}`)).arrayBuffer()).byteLength;
  }
  console.log(
    `offline news on the phone: ${text.count} posts, ${kb(text.bytes)} of text (Dexie), ${kb(pictures)} of list pictures`,
  );
  await list.context.close();

  const posts = await (await fetch(`${server.origin}/api/v1/blogs`)).json();
  const article = await firstVisit(`/news/${posts[0].id}?lng=en`, async (page) => {
    await page.locator('.article-content').waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('.article img')].every((img) => img.complete));
  });
  await article.context.close();
  console.log(`server RSS after: ${server.rssMib().toFixed(0)} MiB`);
} finally {
  await browser.close();
  await server.stop();
}
