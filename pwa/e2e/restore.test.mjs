// A restore phones survive (docs/operations.md, Off-site copy; docs/sync.md, Push):
// the server's machine is lost (`kill -9`) and the server comes back from a copy that
// trails it by a few seconds, as the off-site copy does. A comment the phone had sent,
// and seen confirmed, after the copy was taken is sent again by the phone, once; an
// order it had seen placed, whose stock went meanwhile to an order that reached the
// restored server first, is refused then, and the buyer is told in the app.
// The copy by Litestream from a real store is bench/drill.mjs (scripts/test runs it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PHONE, SERVER, newBuyer, pickupOrder, serverAndBrowser, signIn, toCheckout } from './harness.mjs';

const env = serverAndBrowser();
const ARTICLE = 'Bean prices at Kadutu market climb before the rains';

function comments(dataDir, body) {
  const script =
    'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM blog_comments WHERE body = ?", (sys.argv[2],)).fetchone()[0])';
  return Number(execFileSync('python3', ['-c', script, join(dataDir, 'mavuno.db'), body], { encoding: 'utf8' }));
}

/** The copy the store holds, taken now (`mavuno backup`, marked as a backup): its path. */
function copyNow(server) {
  const copy = join(server.dataDir, `copy-${Date.now()}.db`);
  execFileSync(SERVER, ['backup', '--data-dir', server.dataDir, '--out', copy]);
  return copy;
}

/** The machine is lost (`kill -9`); the server comes back on `copy`, at the same address. */
async function restoreFrom(server, copy) {
  await server.kill();
  for (const file of ['mavuno.db', 'mavuno.db-wal', 'mavuno.db-shm'])
    rmSync(join(server.dataDir, file), { force: true });
  copyFileSync(copy, join(server.dataDir, 'mavuno.db'));
  await server.start();
}

/** Waits until the phone holds its change `name` holding `text` as confirmed by the
 * server (kept aside a day, `confirmed` in its database): what it sends again after a restore. */
async function confirmedOnPhone(page, name, text) {
  await page.waitForFunction(
    async ([name, text]) => {
      for (const { name: database } of await indexedDB.databases()) {
        if (!database?.startsWith('mavuno-') || database === 'mavuno-guest') continue;
        const db = await new Promise((resolve, reject) => {
          const opening = indexedDB.open(database);
          opening.onsuccess = () => resolve(opening.result);
          opening.onerror = reject;
        });
        try {
          if (!db.objectStoreNames.contains('confirmed')) continue;
          const kept = await new Promise((resolve) => {
            const reading = db.transaction('confirmed').objectStore('confirmed').getAll();
            reading.onsuccess = () => resolve(reading.result);
          });
          if (kept.some((change) => change.name === name && JSON.stringify(change.args).includes(text))) return true;
        } finally {
          db.close();
        }
      }
      return false;
    },
    [name, text],
    { polling: 200 },
  );
}

test('a comment confirmed after the last copy reaches a server restored from that copy, once', async () => {
  const { server } = env;
  const page = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(page, server.origin, 'buyer@mavuno.demo');
  await page.goto(`${server.origin}/news?lng=en`);
  await page.getByRole('link', { name: ARTICLE, exact: true }).click();
  await page.getByRole('heading', { name: ARTICLE, level: 1 }).waitFor();
  const post = async (body) => {
    await page.getByLabel('Add a comment').fill(body);
    await page.getByRole('button', { name: 'Post comment' }).click();
    const comment = page.locator('.comment', { hasText: body });
    await comment.waitFor();
    await comment.getByText('Waiting to send').waitFor({ state: 'detached' });
  };
  await post('Before the copy.');

  // The copy the store holds, taken now; then a comment it will lack, sent and confirmed.
  const copy = copyNow(server);
  await post('After the copy: the store never had it.');
  // The phone saw it confirmed by a pull (kept aside a day, `confirmed` in its database).
  await confirmedOnPhone(page, 'comment.create', 'After the copy: the store never had it.');
  assert.equal(comments(server.dataDir, 'After the copy: the store never had it.'), 1);

  // The machine is lost; the server comes back on the copy (marked as restored), same address.
  await restoreFrom(server, copy);
  assert.equal(comments(server.dataDir, 'After the copy: the store never had it.'), 0, 'the copy lacks it');

  // The phone's next sync: a new snapshot, and the comment it had seen confirmed sent again.
  await page.reload();
  await page.getByRole('heading', { name: ARTICLE, level: 1 }).waitFor();
  const until = Date.now() + 30_000;
  while (comments(server.dataDir, 'After the copy: the store never had it.') === 0) {
    assert.ok(Date.now() < until, 'the phone did not send the comment again');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await page.locator('.comment', { hasText: 'After the copy: the store never had it.' }).waitFor();
  assert.equal(await page.locator('.comment', { hasText: 'After the copy: the store never had it.' }).count(), 1);
  assert.equal(comments(server.dataDir, 'After the copy: the store never had it.'), 1);
  assert.equal(comments(server.dataDir, 'Before the copy.'), 1, 'what the copy had is not sent twice');
});

async function api(origin, path, { token, method = 'GET', body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body) headers['content-type'] = 'application/json';
  const response = await fetch(`${origin}/api/v1${path}`, { method, headers, body: body && JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const tokenOf = async (origin, email) =>
  (await api(origin, '/users/login', { method: 'POST', body: { user: { email, password: 'mavuno-demo' } } })).body.user
    .token;

test('an order the buyer saw placed, refused when sent again after a restore, is told to the buyer', async () => {
  const { server } = env;
  const { origin } = server;
  // Two of them left, for sale before the copy.
  const farmer = await tokenOf(origin, 'farmer@mavuno.demo');
  const product = { title: 'Restored yams', description: 'Yams from Kabare', quantity: 2, price: 2, current_price: 2 };
  const listed = await api(origin, '/farmer/products', { token: farmer, method: 'POST', body: { product } });
  assert.equal(listed.status, 201);
  const email = await newBuyer(origin, 'restored');
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, email);
  await toCheckout(page, origin, 'Restored yams');
  const copy = copyNow(server);

  // The order is placed and the phone sees it confirmed; the copy lacks it.
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.getByRole('heading', { name: 'Order placed' }).waitFor();
  await confirmedOnPhone(page, 'order.place', `"product_id":${listed.body.product.id}`);
  assert.equal((await api(origin, '/orders', { token: await tokenOf(origin, email) })).body.data.length, 1);

  // The server comes back on the copy while this phone has no network; another buyer's
  // order for both yams reaches it first.
  await context.network.cut();
  await restoreFrom(server, copy);
  const line = { product_id: listed.body.product.id, quantity: 2, unit_price_cents: 200 };
  const order = pickupOrder(line, '0991000778');
  const other = await api(origin, '/orders', {
    token: await tokenOf(origin, 'buyer@mavuno.demo'),
    method: 'POST',
    body: order,
  });
  assert.equal(other.status, 201, JSON.stringify(other.body));

  // Data flows again: the phone sends its order again; it is refused now, and the buyer
  // who was told "placed" is told otherwise, in the app.
  await context.network.restore();
  await page.goto(`${origin}/dashboard?lng=en`);
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).click({ timeout: 30_000 });
  const told = page.getByRole('button', {
    name: /^After the server was restored, your order of \d\d:\d\d could not be kept/,
  });
  // It opens the buyer's orders, where the order says it was refused.
  await told.click();
  await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
  const card = page.locator('.order-card', { hasText: 'Restored yams' });
  await card.getByText('Not placed', { exact: true }).waitFor();
  await card.getByText('Restored yams: only 0 left').waitFor();
  assert.equal(
    (await api(origin, '/orders', { token: await tokenOf(origin, email) })).body.data.length,
    0,
    'not placed twice, nor kept',
  );
  await context.close();
});
