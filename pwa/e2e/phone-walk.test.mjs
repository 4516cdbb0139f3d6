// Every route, for every role, in the three languages, on a 360 px phone (issue 19):
// nothing wider than the screen, no label cut off, no words over other words, and no
// serious or critical axe problem. A failure names the route, the language and what sticks out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, audit, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();
const LANGUAGES = ['en', 'fr', 'sw'];

/** What does not fit a phone's width: the page scrolls sideways, an element sticks out, or a label is cut. */
function layoutProblems() {
  const width = document.documentElement.clientWidth;
  const problems = [];
  if (document.documentElement.scrollWidth > width + 1)
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  const name = (el) =>
    `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
  const inScroller = (el) => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(e).overflowX)) return true;
    }
    return false;
  };
  const hidden = (el) => {
    // Not drawn at all: the answer inside a closed <details>, and the like.
    if (!el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })) return true;
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.visibility === 'hidden' || e.inert || e.getAttribute('aria-hidden') === 'true') return true;
    }
    return false;
  };
  const sticksOut = new Set();
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    // Wholly off to the left is out of the way on purpose (the skip link until focused, closed drawers).
    if (r.width < 2 || r.height < 2 || r.right <= 0 || inScroller(el) || hidden(el)) continue;
    if (r.right > width + 1 || r.left < -1) {
      sticksOut.add(el);
      if (!sticksOut.has(el.parentElement))
        problems.push(`${name(el)} spans ${Math.round(r.left)}–${Math.round(r.right)} px`);
      continue;
    }
    const style = getComputedStyle(el);
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (
      ownText &&
      el.scrollWidth > el.clientWidth + 1 &&
      ['hidden', 'clip'].includes(style.overflowX) &&
      style.textOverflow !== 'ellipsis'
    )
      problems.push(`${name(el)} cuts its text (${el.scrollWidth} px in ${el.clientWidth})`);
  }
  // Words drawn over other words (a badge over a name); a sticky bar over the page scrolling under it is fine.
  const pinned = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) return true;
    }
    return false;
  };
  const texts = [...document.querySelectorAll('body *')].filter((el) => {
    const r = el.getBoundingClientRect();
    const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    return own && r.width >= 2 && r.height >= 2 && !hidden(el) && getComputedStyle(el).opacity !== '0' && !pinned(el);
  });
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i], texts[j]];
      if (a.contains(b) || b.contains(a)) continue;
      // Line by line: a phrase that wraps spans two lines, not the rectangle around them.
      const overlap = [...a.getClientRects()].some((ra) =>
        [...b.getClientRects()].some((rb) => {
          const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
          const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
          return x > 4 && y > 4;
        }),
      );
      if (overlap) problems.push(`${name(a)} and ${name(b)} overlap`);
    }
  }
  return problems;
}

/** Checks the page as it is now; `where` names it in the report. */
async function check(page, where, problems) {
  // Let lazy parts and pictures settle before measuring (not "network idle": an open
  // app always holds one request, listening for changes).
  await page
    .waitForFunction(() => [...document.images].every((img) => img.complete || img.loading === 'lazy'), null, {
      timeout: 5000,
    })
    .catch(() => {});
  await page.waitForFunction(() => !document.querySelector('.spinner'), null, { timeout: 5000 }).catch(() => {});
  // And the drawer's slide and other transitions to end.
  await page.waitForFunction(() => document.getAnimations().length === 0, null, { timeout: 5000 }).catch(() => {});
  for (const p of await page.evaluate(layoutProblems)) problems.push(`${where}: ${p}`);
  for (const p of await audit(page)) problems.push(`${where}: ${p}`);
}

async function firstIds() {
  const get = async (path) => (await fetch(`${env.server.origin}/api/v1${path}`)).json();
  const products = await get('/products?per_page=1');
  const courses = await get('/courses?per_page=1');
  const posts = await get('/blogs?per_page=1');
  return {
    product: products.data[0].id,
    course: courses.data[0].id,
    post: posts[0].id,
  };
}

const PUBLIC = (ids) => [
  '/',
  '/marketplace',
  `/product/${ids.product}`,
  '/training',
  `/course/${ids.course}`,
  '/news',
  `/news/${ids.post}`,
  '/prices',
  '/prices?crop=bean',
  '/about',
  '/programs',
  '/contact',
  '/login',
  '/register',
  '/cart',
  '/terms',
  '/help',
  '/forgot-password',
  '/reset-password?token=0',
  '/no-such-page',
];

test('a visitor: every public route fits 360 px in the three languages with no serious axe problem', async () => {
  const ids = await firstIds();
  const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  for (const language of LANGUAGES) {
    for (const path of PUBLIC(ids)) {
      const url = new URL(path, env.server.origin);
      url.searchParams.set('lng', language);
      await page.goto(url.href);
      await page.locator('main h1, main h2').first().waitFor();
      await check(page, `visitor ${language} ${path}`, problems);
    }
    // The open menu, too.
    await page
      .getByRole('button', { name: /menu|Menyu/i })
      .first()
      .click();
    await check(page, `visitor ${language} menu`, problems);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

for (const email of ['buyer', 'farmer', 'agent', 'admin', 'superadmin']) {
  test(`${email}: the header, dashboard sections, profile and orders fit 360 px in the three languages`, async () => {
    const context = await env.browser.newContext({ ...PHONE, bypassCSP: true });
    const page = await context.newPage();
    const problems = [];
    await signIn(page, env.server.origin, `${email}@mavuno.demo`);
    for (const language of LANGUAGES) {
      await page.goto(`${env.server.origin}/marketplace?lng=${language}`);
      await page.locator('main h1').first().waitFor();
      await check(page, `${email} ${language} /marketplace`, problems);
      for (const path of ['/profile', '/orders', '/cart']) {
        await page.goto(`${env.server.origin}${path}`);
        await page.locator('main h1, main h2').first().waitFor();
        await check(page, `${email} ${language} ${path}`, problems);
      }
      await page.goto(`${env.server.origin}/dashboard`);
      await page.locator('.dashboard-topbar h1').waitFor();
      const sections = await page.locator('.sidebar nav button').count();
      for (let i = 0; i < sections; i++) {
        if (!(await page.locator('.sidebar.open').count()))
          await page.locator('.dashboard-topbar button').first().click();
        const button = page.locator('.sidebar nav button').nth(i);
        const label = (await button.textContent()).trim();
        await button.click();
        await check(page, `${email} ${language} dashboard "${label}"`, problems);
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}
