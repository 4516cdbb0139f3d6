// News (docs/news.md): a visitor reads the demo articles in Kiswahili, filters them,
// and reads them again offline after one visit; a post carrying a script and an
// event handler shows its text and runs neither; an admin writes a post with a
// picture in Blog Management, as a draft, publishes it, and a visitor reads it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEMO_PASSWORD,
  PHONE,
  assertOffline,
  cameraPhoto,
  controlledByServiceWorker,
  serverAndBrowser,
  signIn,
} from './harness.mjs';

const env = serverAndBrowser();

test('a visitor reads the news in Kiswahili, then offline after one visit', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/news?lng=sw`);
  await controlledByServiceWorker(page);
  await page.getByRole('heading', { name: 'Habari na Blogu ya MAVUNO', level: 1 }).waitFor();
  await page.getByText('Makala 6 kati ya 6').waitFor();
  // The list pictures of the latest posts are kept for offline, even those not scrolled to.
  const listPictures = () =>
    page.evaluate(
      async () => (await (await caches.open('media')).keys()).filter((r) => r.url.endsWith('-320.jpg')).length,
    );
  const posts = await (await fetch(`${env.server.origin}/api/v1/blogs`)).json();
  const distinct = new Set(posts.map((p) => p.thumbnail_url)).size;
  for (let i = 0; i < 100 && (await listPictures()) < distinct; i++) await page.waitForTimeout(100);
  assert.equal(await listPictures(), distinct);
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
  await assertOffline(page);
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
  // A post never opened online, with a picture of its own: its large picture is not on the
  // phone, its list picture is, and shows.
  const opened = posts.find((p) => p.title.startsWith('Kuhifadhi udongo'));
  const unseen = posts.find((p) => p.image_url && p.image_url !== opened.image_url);
  await page.goto(`${env.server.origin}/news/${unseen.id}`).catch(() => {});
  await page.getByRole('heading', { name: unseen.title, level: 1 }).waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector('.article img.product-image');
    return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0 && img.src.endsWith('-320.jpg');
  });
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

test('an admin writes a post with a picture as a draft, publishes it, and a visitor reads it offline', async () => {
  const desk = await env.browser.newContext(PHONE);
  const admin = await desk.newPage();
  await signIn(admin, env.server.origin, 'admin@mavuno.demo');
  await admin.getByRole('button', { name: 'Open menu' }).click();
  await admin.getByRole('navigation').getByRole('button', { name: 'Blog management' }).click();
  await admin.getByRole('heading', { name: 'Blog Management' }).waitFor();
  await admin.getByRole('button', { name: 'New Blog Post' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Create New Blog Post' }).waitFor();
  // Left empty, the form says why, and keeps what was typed.
  await dialog.getByLabel(/^Title/).fill('Terraces that hold the rain');
  await dialog.getByRole('button', { name: 'Create Blog' }).click();
  await dialog.getByRole('alert').waitFor();
  assert.equal(await dialog.getByLabel(/^Title/).inputValue(), 'Terraces that hold the rain');
  await dialog.getByLabel(/^Author/).fill('Amani Bisimwa');
  await dialog.getByLabel(/^Description/).fill('How farmers in Walungu keep soil and water on steep fields.');
  const editor = dialog.getByRole('textbox', { name: 'Content' });
  await editor.click();
  await dialog.getByRole('button', { name: 'Heading', exact: true }).click();
  await admin.keyboard.type('Why terraces');
  await admin.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Paragraph' }).click();
  await admin.keyboard.type('Rain runs off a bare slope and takes the soil with it.');
  await dialog.getByLabel('Image', { exact: true }).setInputFiles(await cameraPhoto(admin, 'terraces.png'));
  await dialog.getByRole('img', { name: 'The chosen picture' }).waitFor();
  await dialog.getByRole('button', { name: 'Create Blog' }).click();
  const row = admin.locator('.admin-blogs tr', { hasText: 'Terraces that hold the rain' });
  await row.getByText('Draft').waitFor();
  await admin.locator('.stat-card', { hasText: 'Drafts' }).getByText('2', { exact: true }).waitFor();

  // A draft is not public.
  const visitor = await env.browser.newContext(PHONE);
  const reader = await visitor.newPage();
  await reader.goto(`${env.server.origin}/news?lng=en`);
  await controlledByServiceWorker(reader);
  await reader.locator('.post-card').first().waitFor();
  assert.equal(await reader.getByRole('link', { name: 'Terraces that hold the rain', exact: true }).count(), 0);

  await row.getByRole('button', { name: 'Publish' }).click();
  await row.getByText('Published').waitFor();
  await desk.close();

  await reader
    .getByRole('button', { name: 'Refresh' })
    .click()
    .catch(() => {});
  await reader.reload();
  await reader.getByRole('link', { name: 'Terraces that hold the rain', exact: true }).click();
  await reader.getByRole('heading', { name: 'Why terraces' }).waitFor();
  await reader.getByText('Rain runs off a bare slope').waitFor();
  await reader.waitForFunction(() => {
    const img = document.querySelector('.article img.product-image');
    return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
  });
  await visitor.setOffline(true);
  await assertOffline(reader);
  await reader.reload();
  await reader.getByRole('heading', { name: 'Why terraces' }).waitFor();
  await visitor.close();
});

test('a buyer comments, replies and likes, also offline; an admin hides a comment and readers stop seeing it', async () => {
  const ARTICLE = 'Bean prices at Kadutu market climb before the rains';
  const open = async (page) => {
    await page.goto(`${env.server.origin}/news?lng=en`);
    await page.getByRole('link', { name: ARTICLE, exact: true }).click();
    await page.getByRole('heading', { name: ARTICLE, level: 1 }).waitFor();
  };
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, 'buyer@mavuno.demo');
  await open(page);
  await page.getByLabel('Add a comment').fill('Prices in Kabare are up too.');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const first = page.locator('.comment', { hasText: 'Prices in Kabare are up too.' });
  await first.waitFor();
  await first.getByText('Waiting to send').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Reply' }).first().click();
  await page.getByLabel(/^Reply to/).fill('And in Walungu.');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await page.locator('.comment-replies .comment', { hasText: 'And in Walungu.' }).waitFor();

  // With no signal, a comment waits on the phone and goes when the network is back.
  await context.setOffline(true);
  await assertOffline(page);
  await page.getByLabel('Add a comment').fill('Written with no signal.');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const offline = page.locator('.comment', { hasText: 'Written with no signal.' });
  await offline.getByText('Waiting to send').waitFor();
  await context.setOffline(false);
  await offline.getByText('Waiting to send').waitFor({ state: 'detached', timeout: 30_000 });

  // Another reader likes the first comment, once.
  const other = await env.browser.newContext(PHONE);
  const farmer = await other.newPage();
  await signIn(farmer, env.server.origin, 'farmer@mavuno.demo');
  await open(farmer);
  const liked = farmer.locator('.comment', { hasText: 'Prices in Kabare are up too.' });
  await liked.getByRole('button', { name: 'Like (0)' }).click();
  await liked.getByRole('button', { name: 'Like (1)', pressed: true }).waitFor();
  await other.close();

  const desk = await env.browser.newContext(PHONE);
  const admin = await desk.newPage();
  await signIn(admin, env.server.origin, 'admin@mavuno.demo');
  await admin.getByRole('button', { name: 'Open menu' }).click();
  await admin.getByRole('navigation').getByRole('button', { name: 'Blog management' }).click();
  await admin.getByRole('button', { name: 'Comments', exact: true }).click();
  const card = admin.locator('.admin-comment', { hasText: 'Prices in Kabare are up too.' });
  await card.getByRole('button', { name: 'Hide' }).click();
  await card.getByText('Hidden').waitFor();
  await desk.close();

  const visitor = await env.browser.newContext(PHONE);
  const reader = await visitor.newPage();
  await open(reader);
  await reader.locator('.comment', { hasText: 'Written with no signal.' }).waitFor();
  assert.equal(await reader.locator('.comment', { hasText: 'Prices in Kabare are up too.' }).count(), 0);
  // Signing in from there comes back to the article, not to the dashboard.
  const article = reader.url();
  await reader.getByRole('link', { name: 'Log in to comment' }).click();
  await reader.getByLabel(/^Email/).fill('buyer@mavuno.demo');
  await reader.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await reader.getByRole('button', { name: 'Sign in' }).click();
  await reader.waitForURL(article);
  await reader.getByRole('button', { name: 'Post comment' }).waitFor();
  await visitor.close();
  await context.close();
});
