// News (docs/news.md): a visitor reads the demo articles in Kiswahili, filters them,
// and reads them again offline after one visit; a post carrying a script and an
// event handler shows its text and runs neither.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEMO_PASSWORD, PHONE, controlledByServiceWorker, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

test('a visitor reads the news in Kiswahili, then offline after one visit', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/news?lng=sw`);
  await controlledByServiceWorker(page);
  await page.getByRole('heading', { name: 'Habari na Blogu ya MAVUNO', level: 1 }).waitFor();
  await page.getByText('Makala 6 kati ya 6').waitFor();
  await page.getByRole('button', { name: 'Uhifadhi' }).click();
  await page.getByText('Makala 2 kati ya 6').waitFor();
  await page.getByLabel('Tafuta habari').fill('MWENGA');
  await page.getByText('Makala 1 kati ya 6').waitFor();
  await page.getByRole('link', { name: 'Kuhifadhi udongo kwenye miteremko ya Mwenga', exact: true }).click();
  await page.getByRole('heading', { name: 'Kuhifadhi udongo kwenye miteremko ya Mwenga', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Hatua rahisi' }).waitFor();
  const article = page.url();
  // The article's picture is kept by the service worker once seen.
  await page.waitForFunction(() => {
    const img = document.querySelector('.article img.product-image');
    return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
  });

  await context.setOffline(true);
  await page.reload();
  await page.getByRole('heading', { name: 'Hatua rahisi' }).waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector('.article img.product-image');
    return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
  });
  await page.getByRole('link', { name: /Rudi kwenye Habari/ }).click();
  await page.getByText('Makala 6 kati ya 6').waitFor();
  await page.getByRole('link', { name: 'Le paillage, une arme contre la sécheresse à Kalehe', exact: true }).click();
  await page.getByRole('heading', { name: 'Comment faire' }).waitFor();
  assert.equal(await page.locator('article').getAttribute('lang'), 'fr');
  await page.goto(article).catch(() => {});
  await page.getByRole('heading', { name: 'Hatua rahisi' }).waitFor();
  await context.close();
});

test('a post with a script and an event handler shows its text and runs neither', async () => {
  const origin = env.server.origin;
  const login = await fetch(`${origin}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email: 'admin@mavuno.demo', password: DEMO_PASSWORD } }),
  });
  const token = (await login.json()).user.token;
  const form = new FormData();
  form.set('blog[title]', 'A harmless looking post');
  form.set('blog[description]', 'Read it');
  form.set(
    'blog[full_content]',
    '<p>Visible words</p><script>window.__ran = "script"; alert(1)</script>' +
      '<img src="x" onerror="window.__ran = \'onerror\'; alert(2)"><a href="javascript:alert(3)">a link</a>',
  );
  form.set('blog[author]', 'Someone');
  form.set('blog[published]', 'true');
  const created = await fetch(`${origin}/api/v1/admin/blogs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  assert.equal(created.status, 201);
  const { data } = await created.json();

  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${origin}/news/${data.id}?lng=en`);
  await page.getByText('Visible words').waitFor();
  // The javascript: address is gone: the words stay, as text.
  await page.getByText('a link').click();
  await page.waitForTimeout(500);
  assert.deepEqual(dialogs, []);
  assert.equal(await page.evaluate(() => window.__ran ?? null), null);
  assert.equal(await page.locator('.article-content script, .article-content [onerror]').count(), 0);
  await context.close();
});
