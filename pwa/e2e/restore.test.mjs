// A restore phones survive (docs/operations.md, Off-site copy; docs/sync.md, Push):
// the server's machine is lost (`kill -9`) and the server comes back from a copy that
// trails it by a few seconds, as the off-site copy does. A comment the phone had sent,
// and seen confirmed, after the copy was taken is sent again by the phone, once.
// The copy by Litestream from a real store is bench/drill.mjs (scripts/test runs it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PHONE, SERVER, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();
const ARTICLE = 'Bean prices at Kadutu market climb before the rains';

function comments(dataDir, body) {
  const script =
    'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM blog_comments WHERE body = ?", (sys.argv[2],)).fetchone()[0])';
  return Number(execFileSync('python3', ['-c', script, join(dataDir, 'mavuno.db'), body], { encoding: 'utf8' }));
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
  const copy = join(server.dataDir, 'copy.db');
  execFileSync(SERVER, ['backup', '--data-dir', server.dataDir, '--out', copy]);
  await post('After the copy: the store never had it.');
  // The phone saw it confirmed by a pull (kept aside a day, `confirmed` in its database).
  await page.waitForFunction(
    async (body) => {
      for (const { name } of await indexedDB.databases()) {
        if (!name?.startsWith('mavuno-') || name === 'mavuno-guest') continue;
        const db = await new Promise((resolve, reject) => {
          const opening = indexedDB.open(name);
          opening.onsuccess = () => resolve(opening.result);
          opening.onerror = reject;
        });
        try {
          if (!db.objectStoreNames.contains('confirmed')) continue;
          const kept = await new Promise((resolve) => {
            const reading = db.transaction('confirmed').objectStore('confirmed').getAll();
            reading.onsuccess = () => resolve(reading.result);
          });
          if (kept.some((change) => change.args?.body === body)) return true;
        } finally {
          db.close();
        }
      }
      return false;
    },
    'After the copy: the store never had it.',
    { polling: 200 },
  );
  assert.equal(comments(server.dataDir, 'After the copy: the store never had it.'), 1);

  // The machine is lost; the server comes back on the copy (marked as restored), same address.
  await server.kill();
  for (const file of ['mavuno.db', 'mavuno.db-wal', 'mavuno.db-shm'])
    rmSync(join(server.dataDir, file), { force: true });
  copyFileSync(copy, join(server.dataDir, 'mavuno.db'));
  await server.start();
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
