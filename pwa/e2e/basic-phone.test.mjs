// Basic phones (issue 34, docs/ussd.md): a farmer's USSD session changes what the
// farmer's open app shows within seconds, and the drawn phone in the dashboard
// walks the same menus.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, serverAndBrowser, signIn, ussd } from './harness.mjs';

const env = serverAndBrowser();
const FARMER_NUMBER = '+243990000003';

async function openSection(page, name) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name }).click();
}

/** One USSD session of the demo farmer, posted as Africa's Talking's gateway posts it. */
const ussdSession = (answers) => ussd(env.server, FARMER_NUMBER, answers);

test("a farmer's USSD session shows in the farmer's open app within seconds", async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, 'farmer@mavuno.demo');
  await openSection(page, 'Products');
  const row = page.locator('.product-row', { hasText: 'Sweet corn' });
  await row.waitFor();
  assert.ok(!(await row.innerText()).includes('61 kg in stock'));

  // Choose a PIN, open the first product (the newest: sweet corn), change its stock.
  const first = await ussdSession(['1', '2580', '2580']);
  assert.match(first, /^CON Mes produits :\n1 /);
  const done = await ussdSession(['1', '2580', '1', '1', '61']);
  assert.match(done, /^END .* : le stock est maintenant de 61 kg\.$/);
  // No reload: the open app hears of the change and pulls it.
  await row.getByText('61 kg in stock').waitFor({ timeout: 10_000 });

  // Something new put on sale from the basic phone: beans, with no photo yet.
  // Beans are sold by the kg: crop, quantity, price (# for the point), yes.
  const sold = await ussdSession(['2', '2580', '2', '80', '1#15', '1']);
  assert.match(sold, /^END Haricots est en vente\./);
  const beans = page
    .locator('.product-row')
    .filter({ has: page.getByRole('heading', { name: 'Haricots', exact: true }) });
  await beans.getByText('80 kg in stock').waitFor({ timeout: 10_000 });
  assert.equal(
    await beans.locator('.product-image.placeholder').getAttribute('data-category'),
    'grains',
    'a drawing of its category',
  );
  await context.close();

  // A French buyer reads the listing made by phone as any other: its place in French, its
  // delivery as the farmer's other listings, and no zero stars.
  const reader = await env.browser.newContext({ ...PHONE, locale: 'fr-CD' });
  const buyer = await reader.newPage();
  await buyer.goto(`${env.server.origin}/marketplace?lng=fr&q=haricot`);
  const card = buyer.locator('main .product-card', { hasText: 'Haricots' }).filter({ hasText: '1,15' });
  await card.waitFor();
  const cardText = await card.innerText();
  assert.match(cardText, /Sud-Kivu/);
  assert.doesNotMatch(cardText, /South Kivu|☆|0\.0 \(0\)|0,0/);
  assert.match(cardText, /Pas encore d’avis|Pas encore d'avis/);
  await card.getByRole('link', { name: 'Haricots' }).first().click();
  const details = buyer.locator('main dl.details');
  await details.waitFor();
  assert.doesNotMatch(await details.innerText(), /\?/, 'no "? jours" of delivery');
  assert.match(await buyer.locator('main').innerText(), /Sud-Kivu/);
  await reader.close();

  // Its description is written in each language too, for buyers reading another.
  const english = await (await env.browser.newContext(PHONE)).newPage();
  await english.goto(`${env.server.origin}/marketplace?lng=en&q=beans`);
  await english
    .locator('main .product-card', { hasText: 'Beans' })
    .getByText(/^Beans from Kabare, South Kivu, put on sale by phone\.$/)
    .waitFor();
  await english.context().close();
});

test('an admin reviewing a basic phone’s application sees its number, and the decision reaches it', async () => {
  // A new number joins and applies to sell from the basic phone, 19 answers, then sends it.
  const phone = '+243971000777';
  assert.match(await ussd(env.server, phone, ['1', 'Zawadi', 'Kahindo', '1', '2', '1']), /^END Bienvenue/);
  const answers = ['1', '2', '2', '1', '2', '1', '1', '1', 'Paillage et rotation', '1', '2', 'Les longues pluies'];
  answers.push('2', 'Les ravageurs', '1', '20', '1', '2', 'Meilleures semences', 'Vendre ensemble', '1');
  assert.match(await ussd(env.server, phone, answers), /^END Votre demande est envoyée/);

  const context = await env.browser.newContext(PHONE);
  const admin = await context.newPage();
  await signIn(admin, env.server.origin, 'admin@mavuno.demo');
  await admin.getByRole('button', { name: 'Open menu' }).click();
  await admin.getByRole('navigation').getByRole('button', { name: 'Applications' }).click();
  const row = admin.locator('.data-table tbody tr, .admin-card', { hasText: 'Zawadi Kahindo' }).first();
  await row.getByRole('button', { name: 'View', exact: true }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('link', { name: phone }).waitFor();
  await dialog.getByText('Basic phone (USSD and SMS): the decision is sent by SMS').waitFor();
  assert.equal(await dialog.locator('dt', { hasText: /^Email$/ }).count(), 0, 'no empty email for a person with none');
  await dialog.getByRole('button', { name: 'Review' }).click();
  const review = admin.getByRole('dialog', { name: 'Update application status' });
  await review.getByLabel('Approve').check();
  await review.getByLabel(/^Comment for the applicant/).fill('Notre agent passera à Kabare mardi.');
  await review.getByRole('button', { name: 'Update status' }).click();
  await admin.getByText('Application status updated').waitFor();
  // The farmer's menu says the decision with the comment (Settings, My application).
  assert.match(await ussd(env.server, phone, ['8', '5']), /^END Votre demande est approuvée : Notre agent passera/);
  await context.close();
});

test('the drawn phone in the dashboard walks the farmer through the same menus', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, env.server.origin, 'farmer@mavuno.demo');
  await page.goto(`${env.server.origin}/dashboard?lng=fr`);
  await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Menu téléphone' }).click();
  await page.getByText(`avec votre numéro, ${FARMER_NUMBER}`).waitFor();
  const screen = page.getByRole('log', { name: "L'écran du téléphone" });
  await page.getByRole('button', { name: 'Appeler' }).click();
  await screen.getByText(/MAVUNO - Amani\n1 Mes produits/).waitFor();
  const keypad = page.getByRole('group', { name: 'Clavier' });
  await keypad.getByRole('button', { name: '5', exact: true }).click();
  await page.getByRole('button', { name: 'Envoyer' }).click();
  await screen.getByText(/Prix de :\n1 Mais/).waitFor();
  await page.getByRole('button', { name: 'Envoyer' }).click();
  await screen.getByText(/^Choisissez de 1 à 7\./).waitFor();
  await page.getByLabel('Votre réponse').fill('5');
  await page.getByRole('button', { name: 'Envoyer' }).click();
  // The demo's market prices (docs/prices.md): the newest week in the farmer's territory
  // (else across every market), named, in francs too at the demo's rate.
  await screen.getByText(/Pommes de terre, [^,]+, semaine du \d\d\/\d\d : \d+,\d\d USD \([\d ]+ FC\) par kg/).waitFor();
  await page.getByText('La session est terminée.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Appeler' }).isEnabled(), true, 'dial again');
  await context.close();
});
