// Farmers list products from their phones, offline, with photos; buyers see
// them after sync (issue: a real marketplace).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, assertOffline, cameraPhoto, controlledByServiceWorker, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();

async function openProducts(page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Products' }).click();
  await page.getByRole('heading', { name: 'Your products' }).waitFor();
}

/** The signal drops and comes back: the phone syncs. */
async function reconnect(context) {
  await context.setOffline(true);
  await context.setOffline(false);
}

test('a farmer lists a product with a photo offline; a buyer finds it, then sees a price changed offline', async () => {
  const { origin } = env.server;
  const farmerContext = await env.browser.newContext(PHONE);
  const farmer = await farmerContext.newPage();
  await signIn(farmer, origin, 'farmer@mavuno.demo');
  await controlledByServiceWorker(farmer);
  await openProducts(farmer);
  await farmer.locator('.product-row', { hasText: 'Fresh tomatoes' }).waitFor();

  await farmerContext.setOffline(true);
  await assertOffline(farmer);
  await farmer.getByRole('button', { name: 'New product' }).click();
  await farmer.getByRole('button', { name: 'Save product' }).click();
  await farmer.getByText('Please answer the questions marked in red.').waitFor();
  // The first field to fix is scrolled to and focused (the button is at the bottom).
  const name = farmer.getByLabel(/^Product name/);
  assert.ok(await name.evaluate((el) => el === document.activeElement), 'the name has the focus');
  assert.ok(
    await name.evaluate(
      (el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= innerHeight,
    ),
  );
  await farmer.getByLabel(/^Product name/).fill('Cassava flour');
  await farmer.getByLabel(/^Description\W*$/).fill('Sun-dried cassava flour, milled in Kabare');
  await farmer.getByLabel('Category').selectOption('grains');
  await farmer.getByLabel(/^Quantity in stock/).fill('40');
  await farmer.getByLabel(/^Original price/).fill('2.00');
  await farmer.getByLabel(/^Current price/).fill('1.75');
  await farmer.getByLabel('Photos').setInputFiles(await cameraPhoto(farmer, 'cassava.png'));
  await farmer.locator('.photo-strip img').waitFor();
  await farmer.getByRole('button', { name: 'Save product' }).click();
  const row = farmer.locator('.product-row', { hasText: 'Cassava flour' });
  await row.getByText('Saved on this phone, waiting to be sent').waitFor();

  await farmerContext.setOffline(false);
  await farmer.getByText('Synced').waitFor();
  await row.getByText('Saved on this phone, waiting to be sent').waitFor({ state: 'detached' });

  const buyerContext = await env.browser.newContext(PHONE);
  const buyer = await buyerContext.newPage();
  await buyer.goto(`${origin}/marketplace?lng=en`);
  await buyer.getByText('Showing 10 of 10 products').waitFor();
  await buyer.getByRole('button', { name: 'Grains & pulses' }).click();
  await buyer.getByLabel('Search products').fill('cassava');
  const card = buyer.locator('.product-card', { hasText: 'Cassava flour' });
  await card.getByText('$1.75').waitFor();
  await buyer.waitForFunction(() => {
    const img = document.querySelector('.product-card img');
    return img && img.complete && img.naturalWidth === 320 && img.src.includes('/media/');
  });

  await card.getByRole('link', { name: 'Cassava flour' }).click();
  await buyer.getByRole('heading', { name: 'Cassava flour' }).waitFor();
  await buyer.getByRole('button', { name: 'One more' }).click();
  await buyer.getByRole('button', { name: 'Add to Cart' }).click();
  await buyer.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
  await buyer.reload();
  await buyer.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
  await buyer.getByRole('link', { name: 'Marketplace' }).first().click();
  await buyer.getByLabel('Search products').fill('cassava');

  // The price changes on the farmer's phone with no signal; the buyer sees it after both sync.
  await farmerContext.setOffline(true);
  await assertOffline(farmer);
  await row.getByRole('button', { name: 'Edit' }).click();
  await farmer.getByLabel(/^Current price/).fill('1.50');
  await farmer.getByLabel(/^Quantity in stock/).fill('55');
  await farmer.getByText('Name in other languages (optional)').click();
  await farmer.getByLabel('Name in Kiswahili').fill('Unga wa muhogo');
  await farmer.getByText('Description in other languages (optional)').click();
  await farmer.getByLabel('Description in Kiswahili').fill('Unga mweupe wa muhogo, umesagwa Kabare.');
  await farmer.getByRole('button', { name: 'Save product' }).click();
  await row.getByText('Saved on this phone, waiting to be sent').waitFor();
  await farmerContext.setOffline(false);
  await row.getByText('Saved on this phone, waiting to be sent').waitFor({ state: 'detached' });

  await reconnect(buyerContext);
  await card.getByText('$1.50').waitFor();
  await card.getByText('55 kg in stock').waitFor();
  const onServer = await (await fetch(`${origin}/api/v1/products?q=cassava`)).json();
  assert.equal(onServer.total, 1, 'listed once, even though it was sent from an offline queue');
  assert.equal(onServer.data[0].image_urls.length, 1);
  assert.equal(onServer.data[0].title_sw, 'Unga wa muhogo');
  assert.equal(onServer.data[0].description_sw, 'Unga mweupe wa muhogo, umesagwa Kabare.');

  // A reader of Kiswahili sees the farmer's name in Kiswahili; others the farmer's own.
  const swahili = await (await env.browser.newContext(PHONE)).newPage();
  await swahili.goto(`${origin}/product/${onServer.data[0].id}?lng=sw`);
  await swahili.getByRole('heading', { name: 'Unga wa muhogo' }).waitFor();
  await swahili.getByText('Unga mweupe wa muhogo, umesagwa Kabare.').waitFor();
  await card.getByRole('link', { name: 'Cassava flour' }).waitFor();
});

test('a farmer edits a description offline on two phones: both edits show', async () => {
  const { origin } = env.server;
  const phones = [];
  for (let n = 0; n < 2; n += 1) {
    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await signIn(page, origin, 'farmer@mavuno.demo');
    await controlledByServiceWorker(page);
    await openProducts(page);
    phones.push({ context, page, row: page.locator('.product-row', { hasText: 'Sweet corn' }) });
  }
  const [a, b] = phones;
  const description = async (phone) => {
    await phone.row.getByRole('button', { name: 'Edit' }).click();
    const value = await phone.page.getByLabel(/^Description\W*$/).inputValue();
    await phone.page.getByRole('button', { name: 'Cancel' }).click();
    return value;
  };
  /** Saves a new description; offline, it waits on the phone. */
  const edit = async (phone, change, { offline = true } = {}) => {
    await phone.row.getByRole('button', { name: 'Edit' }).click();
    const field = phone.page.getByLabel(/^Description\W*$/);
    await field.fill(change(await field.inputValue()));
    await phone.page.getByRole('button', { name: 'Save product' }).click();
    if (offline) await phone.row.getByText('Saved on this phone, waiting to be sent').waitFor();
  };
  const onServer = async () => (await (await fetch(`${origin}/api/v1/products?q=corn`)).json()).data[0].description;
  const sent = (phone) => phone.row.getByText('Saved on this phone, waiting to be sent').waitFor({ state: 'detached' });
  const shows = async (phone, text, message) => {
    for (let tries = 0; (await description(phone)) !== text; tries += 1) {
      assert.ok(tries < 20, message);
      await phone.page.waitForTimeout(250);
    }
  };

  // Online, on phone A: three sentences; phone B hears of it.
  const start = 'Tender yellow maize cobs. Harvested young for grilling. Sold by the kilo.';
  await edit(a, () => start, { offline: false });
  // Online it may be sent before "waiting" ever shows: wait for the server to have it.
  for (let tries = 0; (await onServer()) !== start; tries += 1) {
    assert.ok(tries < 40, 'the server has the text');
    await a.page.waitForTimeout(250);
  }
  await reconnect(b.context);
  await shows(b, start, 'phone B has the text');

  // No signal on either phone: each changes a different sentence.
  for (const phone of phones) {
    await phone.context.setOffline(true);
    await assertOffline(phone.page);
  }
  await edit(a, (text) => text.replace('yellow maize cobs', 'white maize cobs from Walungu'));
  await edit(b, (text) => text.replace('by the kilo', 'by the 50 kg bag'));
  await a.context.setOffline(false);
  await sent(a);
  await b.context.setOffline(false);
  await sent(b);
  await reconnect(a.context);

  const merged = 'Tender white maize cobs from Walungu. Harvested young for grilling. Sold by the 50 kg bag.';
  for (const phone of phones) await shows(phone, merged, 'both edits reach the phone');
  assert.equal(await onServer(), merged);
});
