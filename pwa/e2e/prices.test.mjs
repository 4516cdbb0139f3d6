// Market prices (docs/prices.md) on a 360 px phone: the board opens offline after one
// visit, a farmer sees what buyers paid while pricing beans, and a field agent records
// a price with no signal that arrives once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PHONE,
  appStarted,
  assertOffline,
  controlledByServiceWorker,
  launchProfile,
  serverAndBrowser,
  signIn,
} from './harness.mjs';

const env = serverAndBrowser();

async function openSection(page, name) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name }).click();
}

test('/prices shows each crop from the server first, filters by the address, and opens offline after one visit', async () => {
  const { origin } = env.server;
  const phone = await launchProfile({ ...PHONE, locale: 'fr-CD' });
  const page = phone.context.pages()[0] ?? (await phone.context.newPage());
  await page.goto(`${origin}/prices?crop=bean`);
  // The server's first screen already shows the beans' card, before any script.
  const card = page.locator('.price-card', { hasText: 'Haricots' }).first();
  await card.waitFor();
  assert.match(await card.innerText(), /par kg/);
  assert.match(await card.innerText(), /FC/, 'francs beside dollars');
  await controlledByServiceWorker(page);
  await appStarted(page);
  await card.waitFor();
  assert.ok(await card.locator('svg.sparkline').count(), 'the 12 weeks as a line');
  assert.equal(await page.locator('.price-card').count(), 1, 'only beans, as the address says');
  // At 360 px the prices come first: the card starts on the first screen, the filters folded.
  const top = await card.boundingBox();
  assert.ok(top && top.y < 740 - 80, `the first card on the first screen (at ${top?.y} px)`);
  await page.locator('.price-filters summary', { hasText: 'Haricots · Tous les marchés' }).waitFor();

  // The filters are the address's: choosing a territory narrows the board and the URL.
  await page.locator('.price-filters summary').click();
  const territory = page.getByLabel('Territoire');
  const box = await territory.boundingBox();
  assert.ok(box && box.width > 300, 'a select a row, its words never cut');
  await territory.selectOption('Uvira');
  await page.waitForURL(/territory=Uvira/);
  await page.locator('.price-card details summary', { hasText: 'Par marché (1)' }).waitFor();

  await phone.context.setOffline(true);
  await assertOffline(page);
  await page.goto(`${origin}/prices?crop=bean`);
  await page.locator('.price-card', { hasText: 'Haricots' }).waitFor();
  assert.equal(await page.locator('.price-card').count(), 1, 'the answer kept for offline');
  // A crop never chosen with a signal: read from the whole board kept on the phone, saying when.
  await page.goto(`${origin}/prices?crop=maize`);
  await page.locator('.price-card', { hasText: 'Maïs' }).waitFor();
  await page.getByText(/^Pas de réseau : les prix gardés sur ce téléphone le /).waitFor();
  // And a market: each crop's figures there, named.
  await page.goto(`${origin}/prices?market=1`);
  await page.locator('.price-card', { hasText: 'Kadutu' }).first().waitFor();
  assert.ok((await page.locator('.price-card').count()) > 1, 'every crop at that market');
  await phone.close();
});

test('a farmer sees what buyers paid while pricing beans', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'farmer@mavuno.demo');
  await openSection(page, 'Products');
  await page.getByRole('button', { name: 'New product' }).click();
  await page.getByLabel(/^Product name/).fill('Red beans');
  await page.getByLabel(/^Current price/).fill('9');
  const hint = page.locator('.price-hint');
  const paid = hint.getByText(/^Buyers paid \$\d+\.\d\d–\$\d+\.\d\d per kg for Beans/);
  await paid.waitFor();
  await hint.getByText('This price is above that range.').waitFor();
  // Inside the range the demo's series gives on this day (its weeks move with the date).
  const [low, high] = [...(await paid.innerText()).matchAll(/\$(\d+\.\d\d)/g)].map((m) => Number(m[1]));
  await page.getByLabel(/^Current price/).fill(((low + high) / 2).toFixed(2));
  await hint.getByText('This price is within that range.').waitFor();
  // Nothing for what is no crop.
  await page.getByLabel(/^Product name/).fill('Honey');
  await hint.waitFor({ state: 'detached' });
  await context.close();
});

test('an agent records a price with no signal and it arrives once', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'agent@mavuno.demo');
  await controlledByServiceWorker(page);
  await openSection(page, 'Market prices');
  // The markets come down once with a signal, for the form offline.
  await page
    .getByLabel(/^Market/)
    .locator('option', { hasText: 'Kadutu (Bukavu)' })
    .waitFor({ state: 'attached' });

  await context.setOffline(true);
  await assertOffline(page);
  await page.getByRole('button', { name: 'Save price' }).click();
  await page.getByText('Choose one of the markets on the list.').first().waitFor();
  await page.getByLabel(/^Market/).selectOption({ label: 'Kadutu (Bukavu)' });
  await page.getByLabel(/^Crop/).selectOption('bean');
  await page.getByRole('textbox', { name: 'Price' }).fill('1,35');
  await page.getByLabel('Note').fill('Red beans, dry');
  await page.getByRole('button', { name: 'Save price' }).click();
  await page.getByText('Price saved on this phone. It is sent as soon as there is a signal.').waitFor();
  const row = page.locator('.list-row', { hasText: 'Beans: 1.35 USD' });
  await row.getByText('Waiting to send').waitFor();

  await context.setOffline(false);
  await row.getByText('Sent').waitFor();
  const admin = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  const seen = await admin.evaluate(async (url) => {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return response.json();
  }, `${origin}/api/v1/admin/prices?source=agent`);
  const mine = seen.data.filter((o) => o.note === 'Red beans, dry');
  assert.equal(mine.length, 1, 'sent once');
  assert.equal(mine[0].price_cents, 135);
  assert.equal(mine[0].market, 'Kadutu');
  await context.close();
});

test('a price the server refuses says why and is corrected and sent again from what was typed', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'agent@mavuno.demo');
  await openSection(page, 'Market prices');
  const market = page.getByLabel(/^Market/);
  await market.locator('option', { hasText: 'Minova (Kalehe)' }).waitFor({ state: 'attached' });
  // An admin takes the market off the list after the phone saved it.
  const admin = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  const removed = await admin.evaluate(async (origin) => {
    const headers = { Authorization: `Bearer ${localStorage.getItem('token')}` };
    const markets = (await (await fetch(`${origin}/api/v1/prices/markets`)).json()).data;
    const minova = markets.find((m) => m.name === 'Minova');
    return (await fetch(`${origin}/api/v1/admin/markets/${minova.id}`, { method: 'DELETE', headers })).status;
  }, origin);
  assert.equal(removed, 200);

  await market.selectOption({ label: 'Minova (Kalehe)' });
  await page.getByLabel(/^Crop/).selectOption('maize');
  await page.getByRole('textbox', { name: 'Price' }).fill('0.40');
  await page.getByRole('button', { name: 'Save price' }).click();
  const row = page.locator('.list-row', { hasText: 'Maize: 0.40 USD' });
  await row.getByText('Refused by the server: Choose one of the markets on the list.').waitFor();
  await row.getByRole('button', { name: 'Correct and send again' }).click();
  assert.equal(await page.getByRole('textbox', { name: 'Price' }).inputValue(), '0.40', 'what was typed comes back');
  await market.selectOption({ label: 'Kavumu (Kabare)' });
  await page.getByRole('button', { name: 'Save price' }).click();
  await page.locator('.list-row', { hasText: 'Maize: 0.40 USD' }).getByText('Sent').waitFor();
  assert.equal(await page.locator('.list-row', { hasText: 'Maize: 0.40 USD' }).count(), 1, 'the refused one is gone');
  await context.close();
});

test('an admin on a phone reaches the import and the markets from the top of Market prices, imports a series and adds a market', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, 'admin@mavuno.demo');
  await openSection(page, 'Market prices');
  await page.getByRole('heading', { name: 'Median price, week by week' }).waitFor();
  // A page of prices is ~11,000 px on a phone: the import and the markets are a tap away.
  const reached = async (name) => {
    const link = page.getByRole('navigation', { name: 'Import and markets' }).getByRole('link', { name });
    await link.click();
    const heading = page.getByRole('heading', { name, level: 2 });
    await page.waitForFunction((el) => el.getBoundingClientRect().top < 200, await heading.elementHandle());
    const box = await heading.boundingBox();
    // Below the dashboard's sticky bar (~60 px), not under it.
    assert.ok(box.y >= 56 && box.y + box.height <= 740, `${name} in view below the bar (${box.y} px)`);
  };
  await reached('Import a price series');
  const today = new Date().toISOString().slice(0, 10);
  const row = (market, price) =>
    `${today},Sud-Kivu,Bukavu,${market},,,,pulses and nuts,Beans (dry),,KG,actual,Retail,USD,${price},${price}`;
  const csv = [
    'date,admin1,admin2,market,market_id,latitude,longitude,category,commodity,commodity_id,unit,priceflag,pricetype,currency,price,usdprice',
    row('Kadutu', '1.47'),
    row('Nowhere', '1.48'),
  ].join('\n');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'beans.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const report = page.getByRole('status').filter({ hasText: 'row imported' });
  await report.getByText('1 row imported. 1 refused:').waitFor();
  await report.getByText('Line 3: Choose one of the markets on the list.').waitFor();

  await reached('Markets');
  const form = page.getByRole('form', { name: 'Add or edit a market' });
  await form.getByLabel('Market').fill('Mugogo');
  await form.getByLabel('Territory').fill('Walungu');
  await form.getByRole('button', { name: 'Add market' }).click();
  await page.getByText('Market saved.').waitFor();
  await page.locator('#price-markets ~ .list').getByText('Mugogo').waitFor();
  await context.close();
});

test('numbers read one way in each language: dollars and francs on the board in Kiswahili and French', async () => {
  const context = await env.browser.newContext({ ...PHONE, locale: 'sw-CD' });
  const page = await context.newPage();
  for (const [lng, dollars, francs] of [
    // A decimal dot for dollars, so a comma groups the francs' thousands (never "FC 4.076").
    ['sw', /^US\$\s\d+\.\d\d$/, /^≈ FC\s\d{1,3}(,\d{3})*$/],
    ['fr', /^\d+,\d\d\s\$US$/, /^≈ \d{1,3}(\s\d{3})*\sFC$/],
  ]) {
    await page.goto(`${env.server.origin}/prices?crop=bean&lng=${lng}`);
    const median = page.locator('.price-card .price-median').first();
    await median.waitFor();
    await appStarted(page);
    assert.match((await median.locator('strong').innerText()).trim(), dollars);
    assert.match((await median.locator('.muted').innerText()).trim().replace(/\u202f|\u00a0/g, ' '), francs);
  }
  await context.close();
});
