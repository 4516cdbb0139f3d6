// A first visit shows the page's first screen from the HTML alone (server/src/web/first_screen),
// then the app takes its place without a spinner, a jump of the first picture, or losing
// what was typed (issue: made for a 360 px phone on slow 3G).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, appStarted, controlledByServiceWorker, holdBackApp, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('without any script, the marketplace shows its first products, searches and links at 360 px', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext({ ...PHONE, locale: 'fr-CD', javaScriptEnabled: false });
  const page = await context.newPage();
  for (const lng of ['fr', 'sw', 'en']) {
    await page.goto(`${origin}/marketplace?lng=${lng}`);
    assert.equal(await page.locator('.product-card').count(), 4, lng);
    assert.ok((await overflow(page)) <= 0, `nothing wider than the phone in ${lng}`);
  }
  await page.goto(`${origin}/marketplace?lng=fr`);
  const first = page.locator('.product-card img').first();
  assert.ok(await first.evaluate((img) => img.complete && img.naturalWidth > 0), 'the first picture came');
  await page.getByText('9 produits affichés sur 9').waitFor();

  // The search is a form; the categories are links.
  await page.getByLabel('Rechercher des produits').fill('kahawa');
  await page.getByLabel('Rechercher des produits').press('Enter');
  await page.waitForURL(/q=kahawa/);
  // In French, under their French names (the demo listings and lots are named in the three
  // languages): the coffee and the coffee cooperative's two lots.
  assert.deepEqual(await page.locator('.product-card h2').allInnerTexts(), [
    'Café arabica en grains',
    'Café qualité A, lot 1 de Kabare Coffee Growers',
    'Café qualité A, lot 2 de Kabare Coffee Growers',
  ]);
  await page.getByRole('link', { name: 'Fruits', exact: true }).click();
  await page.waitForURL(/category=fruits/);
  assert.equal(await page.locator('.product-card').count(), 2);
  // The menu button leads to the page's links; a card leads to its product.
  await page.getByRole('link', { name: 'Ouvrir le menu' }).click();
  await page.locator('#first-screen-links').getByRole('link', { name: 'Formations' }).waitFor();
  await page.getByRole('link', { name: 'Avocats' }).first().click();
  await page.getByRole('heading', { name: 'Avocats' }).waitFor();
  await page.getByText('Vendeur vérifié').waitFor();
  for (const path of ['/training', '/news', '/prices', '/', '/about']) {
    await page.goto(`${origin}${path}?lng=sw`);
    await page.locator('[data-first-screen] h1').waitFor();
    assert.ok((await overflow(page)) <= 0, path);
  }
  await context.close();
});

test('the app takes the first screen’s place with no spinner, the same first picture, and what was typed', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  // The app's code arrives late, as on a slow link: the first screen is all there is meanwhile.
  await context.addInitScript(() => {
    window.spinners = 0;
    new MutationObserver(() => {
      if (document.querySelector('.spinner-block, .skeleton')) window.spinners += 1;
    }).observe(document, { childList: true, subtree: true });
  });
  const { page, release } = await holdBackApp(context);
  await page.goto(`${origin}/marketplace?lng=en`, { waitUntil: 'commit' });
  await page.locator('[data-first-screen] .product-card').first().waitFor();
  const before = await page.locator('.product-card img').first().boundingBox();
  await page.getByLabel('Search products').fill('kahawa');
  release();

  await appStarted(page);
  await page.getByText('Showing 3 of 9 products').waitFor();
  assert.equal(await page.getByLabel('Search products').inputValue(), 'kahawa', 'what was typed stayed');
  assert.equal(await page.evaluate(() => window.spinners), 0, 'no spinner or skeleton in between');
  await page.getByLabel('Search products').fill('');
  const after = await page.locator('.product-card img').first().boundingBox();
  assert.deepEqual(after, before, 'the first picture stays where it was, at its size');
  // The app's own card now: quick add puts the minimum order in the cart.
  await page.getByRole('button', { name: 'Add to Cart' }).first().click();
  await page.getByRole('link', { name: /^Cart, \d+ items?$/ }).waitFor();
  assert.ok((await overflow(page)) <= 0);

  // A search typed into the first screen's form and sent before the app started is kept too.
  await page.goto(`${origin}/training?lng=en&q=coffee`);
  await appStarted(page);
  assert.equal(await page.getByLabel('Search courses').inputValue(), 'coffee');
  await context.close();
});

test('a product or course link opened on a new phone shows it, never "not found", while the catalogue arrives', async () => {
  const { origin } = env.server;
  const products = await (await fetch(`${origin}/api/v1/products?sort=name`)).json();
  const avocados = products.data.find((p) => p.title === 'Avocados');
  const course = (await (await fetch(`${origin}/api/v1/courses`)).json()).data[0];
  for (const [path, name, action] of [
    [`/product/${avocados.id}`, 'Avocados', 'Add to Cart'],
    [`/course/${course.id}`, course.title, 'Log in to enrol'],
  ]) {
    const context = await env.browser.newContext(PHONE);
    await context.route('**/api/v1/sync/pull**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
    await context.addInitScript(() => {
      window.notFound = 0;
      new MutationObserver(() => {
        if (/(Product|Course) not found/.test(document.body?.innerText ?? '')) window.notFound += 1;
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await page.goto(`${origin}${path}?lng=en`);
    await page.locator('[data-first-screen]').getByRole('heading', { name, exact: true }).waitFor();
    await appStarted(page);
    await page
      .getByRole('link', { name: action })
      .or(page.getByRole('button', { name: action }))
      .waitFor();
    assert.equal(await page.evaluate(() => window.notFound), 0, path);
    await context.close();
  }
});

test('the account forms, help, terms, a post, a course, a certificate check and an empty cart show from the HTML alone, and the app takes their place where they were', async () => {
  const { origin } = env.server;
  const post = (await (await fetch(`${origin}/api/v1/blogs`)).json())[0];
  const course = (await (await fetch(`${origin}/api/v1/courses`)).json()).data[0];
  const bare = await env.browser.newContext({ ...PHONE, locale: 'fr-CD', javaScriptEnabled: false });
  const page = await bare.newPage();
  const paths = [
    '/register',
    '/forgot-password',
    '/reset-password?phone=%2B243970000001',
    '/help',
    '/terms',
    '/cart',
    `/news/${post.id}`,
    `/course/${course.id}`,
    '/certificates/AAAA-BBBB-CCCC',
  ];
  for (const lng of ['fr', 'sw', 'en']) {
    for (const path of paths) {
      await page.goto(`${origin}${path}${path.includes('?') ? '&' : '?'}lng=${lng}`);
      await page.locator('[data-first-screen] h1').waitFor();
      assert.ok((await overflow(page)) <= 0, `${path} fits the phone in ${lng}`);
    }
  }
  await page.goto(`${origin}/register?lng=fr`);
  assert.ok(await page.getByLabel('Prénom').isDisabled(), 'nothing can be typed where it would be lost');
  assert.ok(await page.getByRole('button', { name: 'Créer un compte' }).isDisabled());
  await page.getByRole('link', { name: 'conditions d’utilisation et la politique de confidentialité' }).click();
  await page.getByRole('heading', { name: 'Ce que nous gardons sur vous' }).waitFor();
  await page.goto(`${origin}/help?lng=fr`);
  const answer = page.getByText('Oui. Une fois le marché, les formations');
  assert.ok(!(await answer.isVisible()));
  await page.getByText('MAVUNO marche-t-il sans réseau ?').click();
  await answer.waitFor();
  await page.goto(`${origin}/cart?lng=sw`);
  await page.getByRole('heading', { name: 'Kikapu chako kiko tupu' }).waitFor();
  await page.goto(`${origin}/course/${course.id}?lng=en`);
  await page.getByRole('link', { name: 'Log in to enrol' }).click();
  await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  await bare.close();

  // With the app's code held back: the first screen, then the app's own page in its place.
  for (const [path, selector] of [
    ['/register', 'form.card'],
    [`/news/${post.id}`, '.article-content'],
    [`/course/${course.id}`, '.course-main'],
    ['/help', 'details:last-of-type'],
  ]) {
    const context = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
    const { page: app, release } = await holdBackApp(context);
    await app.goto(`${origin}${path}?lng=fr`, { waitUntil: 'commit' });
    await app.locator(`[data-first-screen] ${selector}`).waitFor();
    const before = await app.locator(`main ${selector}`).boundingBox();
    release();
    await appStarted(app);
    assert.deepEqual(await app.locator(`main ${selector}`).boundingBox(), before, `${path}: ${selector} stays put`);
    if (path === '/register') {
      await app.getByLabel('Prénom').fill('Amani');
      await app.getByRole('button', { name: 'Créer un compte' }).click();
      await app.getByText('Le nom est obligatoire').first().waitFor();
      assert.equal(await app.getByLabel('Prénom').inputValue(), 'Amani');
    }
    await context.close();
  }
});

test('a phone whose cart holds something never sees the server draw it empty', async () => {
  const { origin } = env.server;
  // No service worker: every visit is a first visit, the server's page each time.
  const context = await env.browser.newContext({ ...PHONE, serviceWorkers: 'block' });
  await context.addInitScript(() => {
    window.emptyCart = 0;
    new MutationObserver(() => {
      if (/Your cart is empty/.test(document.body?.innerText ?? '')) window.emptyCart += 1;
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  await page.goto(`${origin}/marketplace?lng=en`);
  await appStarted(page);
  await page.getByRole('button', { name: 'Add to Cart' }).first().click();
  await page.getByRole('link', { name: /^Cart, \d+ items?$/ }).waitFor();
  await page.goto(`${origin}/cart`);
  await page.getByRole('heading', { name: 'Your cart' }).waitFor();
  assert.equal(await page.evaluate(() => window.emptyCart), 0, 'never “empty” while it holds something');
  await page.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
  // Emptied, the server draws it empty again (read from its answer: the app may take
  // the first screen's place before a locator sees it).
  const html = await (await page.reload()).text();
  assert.match(html, /data-first-screen[\s\S]*Your cart is empty/);
  await context.close();
});

test('a phone fetches a page’s main picture once, at 720 px, in the first screen and the app alike; a wide sharp screen as wide as it draws it', async () => {
  const { origin } = env.server;
  const products = await (await fetch(`${origin}/api/v1/products?sort=name`)).json();
  const product = products.data.find((p) => p.title === 'Avocados');
  const course = (await (await fetch(`${origin}/api/v1/courses`)).json()).data.find((c) => c.image_url);
  const post = (await (await fetch(`${origin}/api/v1/blogs`)).json()).find((p) => p.image_url);
  const wide = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 };
  // [device, page, its main picture, the size the picture's drawn width needs]
  const cases = [
    [PHONE, `/product/${product.id}`, '.gallery > .product-image', product.image_urls[0].url, 720],
    [PHONE, `/course/${course.id}`, '.course-sidebar > .product-image', course.image_url, 720],
    [PHONE, `/news/${post.id}`, '.article > .product-image', post.image_url, 720],
    [wide, `/product/${product.id}`, '.gallery > .product-image', product.image_urls[0].url, 1024],
    // The course's picture is in its narrow side column.
    [wide, `/course/${course.id}`, '.course-sidebar > .product-image', course.image_url, 720],
    [wide, `/news/${post.id}`, '.article > .product-image', post.image_url, 1024],
  ];
  // A new phone each time: a second visit opens the service worker's copy of the app.
  for (const [device, path, selector, display, size] of cases) {
    const context = await env.browser.newContext(device);
    // The first screen's picture is checked before the app may take its place.
    const { page, release } = await holdBackApp(context);
    const fetched = [];
    page.on('request', (request) => {
      if (/\/media\/\w+-(720|1024)\.jpg$/.test(request.url())) fetched.push(new URL(request.url()).pathname);
    });
    const chosen = display.replace('-1024.jpg', `-${size}.jpg`);
    await page.goto(`${origin}${path}?lng=fr`, { waitUntil: 'commit' });
    const firstScreen = `[data-first-screen] ${selector}`;
    await page.locator(firstScreen).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(s)?.currentSrc, firstScreen);
    assert.equal(new URL(await page.locator(firstScreen).evaluate((img) => img.currentSrc)).pathname, chosen, path);
    release();
    await appStarted(page);
    const app = page.locator(selector);
    await page.waitForFunction((s) => document.querySelector(s)?.complete, selector);
    assert.equal(new URL(await app.evaluate((img) => img.currentSrc)).pathname, chosen, `${path} in the app`);
    assert.ok(await app.evaluate((img) => img.naturalWidth > 0), path);
    assert.deepEqual(fetched, [chosen], `${path}: one file, of the size it is drawn at`);
    await context.close();
  }
});

test('a first screen carries the app’s styles before its content; the shell paints before them', async () => {
  const { origin } = env.server;
  const html = async (path) => (await fetch(`${origin}${path}?lng=fr`)).text();
  for (const path of ['/news/1', '/product/1', '/marketplace', '/register']) {
    const page = await html(path);
    assert.ok(page.includes('data-first-screen'), path);
    // On a slow link the browser paints what has arrived: styles after the content let it
    // paint unstyled, then move everything (a layout shift of the whole page).
    assert.ok(page.lastIndexOf('</style>') < page.indexOf('<body'), `${path}: every style in the head`);
  }
  const shell = await html('/dashboard');
  assert.ok(!shell.includes('data-first-screen'));
  assert.ok(shell.lastIndexOf('<style>') > shell.indexOf('class="boot"'), 'the shell first, the app’s styles after');
});

test('a first screen of words paints before the app’s code is asked for, which the page itself then asks for, allowed by its policy', async () => {
  const context = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
  const page = await context.newPage();
  // When each file of the app's code was first named in the page, and the first paint (page clock).
  await page.addInitScript(() => {
    window.__named = [];
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node.rel === 'modulepreload') window.__named.push([node.getAttribute('href'), performance.now()]);
    }).observe(document, { childList: true, subtree: true });
  });
  // The page's first script held back: whatever asks for the app's code meanwhile is the page itself.
  const cdp = await context.newCDPSession(page);
  const held = [];
  cdp.on('Fetch.requestPaused', ({ requestId, request }) => {
    if (/\/assets\/index-[\w-]+\.js$/.test(request.url)) held.push(requestId);
    else void cdp.send('Fetch.continueRequest', { requestId }).catch(() => {});
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/assets/*', requestStage: 'Request' }] });
  const vendor = page.waitForRequest((request) => /\/assets\/vendor-[\w-]+\.js$/.test(request.url()));
  await page.goto(`${env.server.origin}/about`, { waitUntil: 'commit' });
  await vendor;
  assert.equal(held.length, 1, 'asked for before the first script ran');
  const { named, painted } = await page.evaluate(() => ({
    named: window.__named,
    painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
  }));
  assert.ok(painted > 0, 'the first screen has painted');
  assert.ok(named.length >= 3, JSON.stringify(named));
  for (const [file, at] of named)
    assert.ok(at >= painted, `${file} named at ${at} ms, before the paint at ${painted} ms`);
  held.forEach((requestId) => void cdp.send('Fetch.continueRequest', { requestId }));
  await appStarted(page);
  await page.locator('main h1').waitFor();
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'the policy allows the page’s script');
  await context.close();
});

test('the app never fetches the stylesheet its page carries inline, first visit or from the service worker', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  const asked = [];
  page.on('request', (request) => request.url().endsWith('.css') && asked.push(request.url()));
  await page.goto(`${env.server.origin}/marketplace`);
  await appStarted(page);
  await page.locator('.product-card').first().waitFor();
  // Other pages' code (lazy chunks, whose loader comes from the entry chunk), then the
  // app as the service worker serves it.
  await page.getByRole('link', { name: 'News' }).first().click();
  await page.locator('.post-card').first().waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.locator('.post-card').first().waitFor();
  const again = await page.evaluate(async (urls) => {
    const inline = new Set([...document.querySelectorAll('style')].map((style) => style.textContent));
    const texts = await Promise.all(urls.map(async (url) => [url, await (await fetch(url)).text()]));
    return { inline: inline.size, twice: texts.filter(([, text]) => inline.has(text)).map(([url]) => url) };
  }, asked);
  assert.ok(again.inline >= 1, 'the page carries the app’s styles inline');
  assert.deepEqual(again.twice, [], 'a stylesheet the page already has inline was downloaded again');
  assert.equal(
    await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')).position),
    'sticky',
    'the inline styles apply',
  );
  await context.close();
});

test('the first script asks for the page’s code and the reader’s words with the app’s, and the app takes the page’s settings', async () => {
  const context = await env.browser.newContext({ ...PHONE, locale: 'sw-KE' });
  // The app's code held back: whatever is asked for meanwhile, the first script asked for.
  const { page, release } = await holdBackApp(context, { firstScript: true });
  const asked = [];
  const pulls = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    asked.push(url.pathname);
    if (url.pathname === '/api/v1/sync/pull') pulls.push(url.search);
  });
  await page.goto(`${env.server.origin}/news`, { waitUntil: 'commit' });
  const words = () => asked.filter((path) => /^\/assets\/(en|fr|sw)-[\w-]+\.js$/.test(path));
  // The app, the page, the sync that the page reads its posts from (its stores, one file:
  // vite.config.ts GROUPS), the reader’s words, and the catalogue's first pull (lib/sync/early-pull.ts).
  const wanted = [
    /^\/assets\/boot-/,
    /^\/assets\/news-page-/,
    /^\/assets\/data-/,
    /^\/assets\/sw-/,
    /^\/api\/v1\/sync\/pull$/,
  ];
  for (let tries = 0; !wanted.every((file) => asked.some((path) => file.test(path))); tries += 1) {
    assert.ok(tries < 100, `asked for: ${asked.join(' ')}`);
    await page.waitForTimeout(100);
  }
  assert.equal(await page.locator('[data-first-screen]').count(), 1, 'the app has not run yet');
  release();
  await appStarted(page);
  await page.locator('main .post-card').first().waitFor();
  assert.deepEqual(
    words().map((path) => path.split('-')[0]),
    ['/assets/sw'],
    'the reader’s words only, once',
  );
  assert.deepEqual(
    pulls.filter((query) => !query.includes('cursor=')),
    ['?limit=200'],
    'the catalogue’s first pull, once: the app took the one the first script asked for',
  );
  await page.evaluate(() => navigator.serviceWorker.ready);
  assert.deepEqual(
    asked.filter((path) => path.includes('signed-in-words')),
    [],
    'a visitor never downloads the signed-in screens’ words',
  );
  // The footer's address, from the settings the page came with: never asked for again.
  await page.locator('footer').getByText('Bukavu').first().waitFor();
  assert.deepEqual(
    asked.filter((path) => path === '/api/v1/settings'),
    [],
  );
  await context.close();
});

test('a visitor’s home, help and about page are the app’s without the local database’s code, a sign-in without the catalogue; the marketplace’s brings it', async () => {
  const context = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
  // The files a page asked for until the app took its first screen's place.
  const askedUntilApp = async (path) => {
    const page = await context.newPage();
    const asked = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(`${env.server.origin}${path}`, { waitUntil: 'commit' });
    await appStarted(page);
    await page.locator('main h1').first().waitFor();
    const until = [...asked];
    await page.close();
    return until;
  };
  const localDb = (asked) => asked.filter((path) => /^\/assets\/local-db-/.test(path));
  // (Not the sign-in form's: it asks for the home's files, which read the local database.)
  for (const path of ['/', '/help', '/about']) {
    const asked = await askedUntilApp(path);
    assert.ok(
      asked.some((file) => /^\/assets\/boot-/.test(file)),
      `${path}: the app ran`,
    );
    assert.deepEqual(localDb(asked), [], `${path}: ${asked.join(' ')}`);
  }
  // Nor does a sign-in ask for the visitor's catalogue (lib/sync/early-pull.ts).
  const signIn = await askedUntilApp('/login');
  assert.ok(!signIn.includes('/api/v1/sync/pull'), signIn.join(' '));
  await context.clearCookies();
  const fresh = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
  const page = await fresh.newPage();
  const asked = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`${env.server.origin}/marketplace`, { waitUntil: 'commit' });
  await appStarted(page);
  assert.equal(localDb(asked).length, 1, 'the catalogue is read from the local database');
  await fresh.close();
  await context.close();
});

test('opened again from the service worker, the app draws the opened page at once, never a spinner before it', async () => {
  const context = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/login`);
  await appStarted(page);
  await controlledByServiceWorker(page);
  await page.close();
  // Every spinner drawn in the page before its heading.
  await context.addInitScript(() => {
    window.spinnersBefore = [];
    new MutationObserver((changes) => {
      if (document.querySelector('main h1')) return;
      for (const change of changes) {
        for (const node of change.addedNodes) {
          const spinner =
            node instanceof Element && (node.matches('.spinner-block') || node.querySelector('.spinner-block'));
          if (spinner) window.spinnersBefore.push(node.textContent);
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const opened = async (path, heading) => {
    const again = await context.newPage();
    await again.goto(`${env.server.origin}${path}`);
    await again.locator('main h1').getByText(heading).waitFor();
    assert.deepEqual(await again.evaluate(() => window.spinnersBefore), [], `spinners before ${path}'s page`);
    return again;
  };
  await (await opened('/login', 'Bon retour parmi nous')).close();
  await (await opened('/about', 'À propos')).close();
  await context.close();
});

test('a word typed into the first screen’s search is searched without the search key, and the app takes it over', async () => {
  const context = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
  // The first script runs; the app's code is held back, as on a slow link.
  const { page, release } = await holdBackApp(context, { firstScript: true });
  await page.goto(`${env.server.origin}/marketplace?lng=fr`, { waitUntil: 'commit' });
  await page.locator('[data-first-screen] .product-card').first().waitFor();
  const search = page.getByLabel('Rechercher des produits');
  assert.equal(await search.getAttribute('enterkeyhint'), 'search', 'the keyboard shows a search key');
  await search.pressSequentially('haricot', { delay: 80 });
  // Not "9 produits affichés sur 9" while nothing happens: it is searching, then found.
  await page.getByRole('status').getByText('Recherche de « haricot »…').waitFor();
  await page.waitForURL(/q=haricot/);
  await page
    .locator('[data-first-screen]')
    .getByRole('status')
    .getByText(/^\d+ produits? affichés? sur \d+$/)
    .waitFor();
  const found = await page.locator('[data-first-screen] .product-card h2').allInnerTexts();
  assert.ok(found.length > 0 && found.every((title) => /haricot/i.test(title)), found.join(', '));
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'first-q', 'the keyboard stays open');
  release();
  await appStarted(page);
  assert.equal(await page.getByLabel('Rechercher des produits').inputValue(), 'haricot', 'carried into the app');
  await page
    .getByRole('status')
    .getByText(/^\d+ produits? affichés? sur \d+$/)
    .waitFor();
  assert.doesNotMatch(await page.locator('main .product-card').first().innerText(), /Café/);
  await context.close();
});
