// Cooperatives (docs/cooperatives.md) on a 360 px phone: a farmer asks to join, the
// manager (a field agent) accepts and weighs the farmer's beans in with the network
// really cut; the delivery arrives once, and the farmer sees it and disputes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, assertOffline, controlledByServiceWorker, newBuyer, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();

async function openSection(page, name) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name }).click();
}

/** Calls the API as the page's signed-in person. */
function call(page, path, method = 'GET', body) {
  return page.evaluate(
    async ({ url, method, body }) => {
      const headers = { Authorization: `Bearer ${localStorage.getItem('token')}`, 'Content-Type': 'application/json' };
      const response = await fetch(url, { method, headers, body: body && JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    },
    { url: `${env.server.origin}/api/v1${path}`, method, body },
  );
}

test('a farmer joins, the manager weighs their beans in without a signal, and the farmer disputes the entry', async () => {
  const { origin } = env.server;
  // An admin makes the cooperative on their phone and names the field agent its manager.
  const admin = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  await admin.goto(`${origin}/dashboard?section=cooperative`);
  const form = admin.locator('form', { hasText: 'New cooperative' });
  await form.getByLabel(/^Territory/).fill('Walungu');
  await form.getByRole('button', { name: 'Create' }).click();
  await form.getByText('Choose one of the markets on the list.').first().waitFor();
  assert.equal(await form.getByLabel(/^Territory/).inputValue(), 'Walungu', 'what was typed is kept');
  await form.getByLabel(/^Name/).fill('Walungu Bean Growers');
  await form.getByLabel(/^Market where its sales count/).selectOption({ index: 1 });
  await form.getByLabel(/^Description/).fill('Red and yellow beans from Walungu');
  // A fee past what the label says is refused in the label's words.
  await form.getByLabel(/^Its own fee/).fill('25');
  await form.getByRole('button', { name: 'Create' }).click();
  await form.getByText("The cooperative's fee is from 0 to 20 percent").waitFor();
  await form.getByLabel(/^Its own fee/).fill('2.5');
  await form.getByRole('button', { name: 'Create' }).click();
  const made = admin.locator('li.list-row', { hasText: 'Walungu Bean Growers' });
  await made.getByText('No manager yet: name one below.').waitFor();
  await made.getByLabel(/^Find a farmer or field agent/).fill('Espoir');
  await made.getByRole('button', { name: 'Search' }).click();
  await made.getByRole('button', { name: 'Name manager' }).click();
  await made.getByText('Managers: Espoir Cirhuza').waitFor();
  const listed = await call(admin, '/admin/cooperatives');
  const cooperative = listed.body.data.find((c) => c.name === 'Walungu Bean Growers').id;

  // The farmer asks to join from their dashboard.
  const farmerContext = await env.browser.newContext(PHONE);
  const farmer = await farmerContext.newPage();
  await signIn(farmer, origin, 'farmer@mavuno.demo');
  await openSection(farmer, 'Cooperatives');
  const offer = farmer.locator('.list-row', { hasText: 'Walungu Bean Growers' });
  await offer.getByRole('button', { name: 'Ask to join' }).click();
  await farmer.locator('.list-row', { hasText: 'Walungu Bean Growers' }).getByText('Asked to join').waitFor();

  // The manager accepts, then weighs in at a collection point with no signal.
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'agent@mavuno.demo');
  await controlledByServiceWorker(page);
  await openSection(page, 'Cooperatives');
  // What waits for the manager's decision comes first, before the weigh-in form.
  await page.locator('#coop-asking').waitFor();
  const first = await page.evaluate(
    () => document.querySelector('#coop-asking').compareDocumentPosition(document.querySelector('#weigh-in')) & 4,
  );
  assert.equal(first, 4, 'the join requests come before the weigh-in form');
  const asking = page.locator('.list-row', { hasText: 'Walungu Bean Growers' }).filter({ hasText: /Accept/ });
  await asking.getByRole('button', { name: 'Accept' }).click();
  // The agent also manages the demo's coffee cooperative: the form asks which.
  await page.getByLabel(/^Cooperative/).selectOption({ label: 'Walungu Bean Growers' });
  const member = page.getByLabel(/^Member/);
  await member.locator('option', { hasText: /^Amani/ }).waitFor({ state: 'attached' });

  await context.setOffline(true);
  await assertOffline(page);
  await page.getByRole('button', { name: 'Save delivery' }).click();
  await page.getByText('Choose the member who brought it.').first().waitFor();
  await member.selectOption(await member.locator('option', { hasText: /^Amani Bahati/ }).getAttribute('value'));
  await page.getByLabel(/^Crop/).selectOption('bean');
  await page.getByLabel(/^Quantity/).fill('48,5');
  await page.getByLabel(/^Collection point/).fill('Walungu centre');
  await page.getByRole('button', { name: 'Save delivery' }).click();
  await page.getByText('Delivery saved on this phone. It is sent as soon as there is a signal.').waitFor();
  const row = page.locator('.list-row', { hasText: '48.5 kg Beans (grade A)' });
  await row.getByText('Waiting to send').waitFor();
  assert.equal(await page.getByLabel(/^Collection point/).inputValue(), 'Walungu centre', 'the point is kept');

  await context.setOffline(false);
  await row.getByText('Sent').waitFor();
  // The day's figures and the stock follow, without opening the section again.
  const books_ = page.locator('#coop-books').locator('..');
  await books_.getByText('Today: 1 delivery, 48.5 kg.').waitFor();
  // The stock, the lots and the money are folded under a line; opened once, they stay open.
  await books_.getByText('Beans, grade A: 48.5 kg received from 1 member').waitFor({ state: 'detached' });
  await page.locator('summary', { hasText: 'Stock, lots and money of Walungu Bean Growers' }).click();
  await books_.getByText('Beans, grade A: 48.5 kg received from 1 member').waitFor();
  const book = await call(admin, `/cooperatives/${cooperative}/deliveries`);
  assert.equal(book.body.data.length, 1, 'sent once');
  assert.equal(book.body.data[0].kilograms, '48.5');
  // The manager takes the book away as a spreadsheet.
  const books = page.locator('.list-row', { hasText: 'Walungu Bean Growers' });
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    books.getByRole('button', { name: 'Download the book (CSV)' }).click(),
  ]);
  assert.match(file.suggestedFilename(), /^deliveries_\d{4}-\d{2}-\d{2}\.csv$/);

  // The farmer sees the entry and says what is wrong.
  await farmer.reload();
  await openSection(farmer, 'Cooperatives');
  const entry = farmer.locator('.list-row', { hasText: '48.5 kg Beans (grade A)' });
  await entry.waitFor();
  await entry.getByRole('button', { name: 'Something is wrong' }).click();
  await entry.getByLabel(/^What is wrong with D\d+/).fill('It was 46 kg, two were stones');
  await entry.getByRole('button', { name: 'Send' }).click();
  await farmer.getByText('You disputed this delivery. A manager will answer.').waitFor();
  const disputed = await call(admin, `/cooperatives/${cooperative}/deliveries`);
  assert.equal(disputed.body.data[0].dispute.reason, 'It was 46 kg, two were stones');

  // The manager puts a lot of it on sale; more than is held is refused with what was typed kept.
  await page.reload();
  await openSection(page, 'Cooperatives');
  const lotForm = page.locator('form', { hasText: 'Put a lot of Walungu Bean Growers on sale' });
  await lotForm.getByLabel(/^From the stock/).selectOption({ label: 'Beans, grade A: 48.5 kg held' });
  await lotForm.getByLabel(/^Kilograms in the lot/).fill('60');
  await lotForm.getByLabel(/^Price per kg/).fill('1,10');
  await lotForm.getByLabel(/^Where the buyer collects it/).fill('Walungu centre');
  // Collected Tuesday to Saturday (Monday ticked off); the cooperative does not deliver.
  const days = lotForm.getByRole('group', { name: 'Days buyers collect it' });
  assert.equal(await days.getByRole('checkbox', { checked: true }).count(), 6, 'Monday to Saturday unless said');
  await days.getByRole('checkbox', { name: 'Monday' }).uncheck();
  await lotForm.getByRole('button', { name: 'Put on sale' }).click();
  await lotForm.getByText('The lot is larger than the stock held for this crop and grade.').first().waitFor();
  assert.equal(await lotForm.getByLabel(/^Where the buyer collects it/).inputValue(), 'Walungu centre');
  await lotForm.getByLabel(/^Kilograms in the lot/).fill('40');
  await lotForm.getByRole('button', { name: 'Put on sale' }).click();
  await lotForm.getByText('The lot is on sale in the marketplace.').waitFor();
  await page.getByText('Collect it at Walungu centre, Tuesday to Saturday').first().waitFor();
  // One number everywhere: the manager's row, the buyer's title, the origin files.
  const lotRow = page.locator('.list-row', { hasText: 'Lot 1: Beans, grade A, 40 kg' }).last();
  await lotRow.waitFor();
  const lots = await call(admin, `/cooperatives/${cooperative}/lots`);
  assert.equal(lots.body.data.length, 1, 'made once');
  assert.equal(lots.body.data[0].on_sale_kilograms, 40);
  assert.equal(lots.body.data[0].number, 1, "the cooperative's first lot");
  // A better price, from the lot's row.
  // (The lot's row is inside its cooperative's: the innermost row is the lot's.)
  await lotRow.getByLabel(/^New price per kg/).fill('1,20');
  await lotRow.getByRole('button', { name: 'Save the price' }).click();
  await lotRow.getByText('$1.20 per kg').waitFor();

  // Buyers see it in the marketplace as the cooperative's, with its origin to download, in French too.
  await farmer.goto(`${origin}/product/${lots.body.data[0].product_id}`);
  const lotDetails = farmer.locator('.lot-details');
  await lotDetails.getByText('Walungu Bean Growers: from 1 member, collected').waitFor();
  await lotDetails.getByText('Collect it at Walungu centre, Tuesday to Saturday').waitFor();
  await farmer.locator('.product-page').getByText("Collect at the cooperative's store").waitFor();
  const [origin_] = await Promise.all([
    farmer.waitForEvent('download'),
    lotDetails.getByRole('link', { name: 'Origin (GeoJSON map)' }).click(),
  ]);
  assert.equal(origin_.suggestedFilename(), 'lot_1_origin.geojson');
  // The manager pays a member their share of the demo's sold coffee lot by mobile money
  // (the demo's simulator pays at once); the member sees it is paid.
  // The cooperative's own page lists its lot; a member asking to join hears they are one.
  await lotDetails.getByRole('link', { name: 'About Walungu Bean Growers' }).click();
  const coopPage = farmer.locator('.cooperative-page');
  await coopPage.getByRole('heading', { level: 1, name: 'Walungu Bean Growers' }).waitFor();
  await coopPage.locator('.list-row', { hasText: 'Beans grade A, lot 1 of Walungu Bean Growers' }).waitFor();
  await coopPage.getByRole('button', { name: 'Ask to join' }).click();
  await coopPage.getByText('You are a member.').waitFor();

  // The order for the demo's sold coffee lot is in the manager's list, as a farmer's are.
  const lotOrders = page.locator('section', { hasText: 'Orders for the lots of Kabare Coffee Growers' }).last();
  await lotOrders
    .getByText(/^Order #\d+/)
    .first()
    .waitFor();
  await page.locator('summary', { hasText: 'Stock, lots and money of Kabare Coffee Growers' }).click();
  const money = page.locator('section.coop-money', { hasText: 'Money of Kabare Coffee Growers' });
  await money.getByText(/^Sales /).waitFor();
  const amani = money.locator('.list-row', { hasText: 'Amani Bahati' });
  const owed = /owed \$(\d+\.\d\d)/.exec(await amani.innerText())[1];
  // The first tap only shows what would be sent: the member's 099 number is Airtel's.
  await amani.getByRole('button', { name: 'Pay by mobile money' }).click();
  const payout = amani.locator('form.payout-form');
  await payout.getByText('From the number: Airtel Money.').waitFor();
  assert.equal(await payout.getByLabel('Operator').inputValue(), 'AIRTEL_COD');
  assert.equal(await payout.getByLabel('Mobile money number').inputValue(), '+243990000003');
  assert.equal(await payout.getByLabel(/^Amount in US dollars/).inputValue(), owed);
  await payout.getByText('No fee: the member receives the whole amount.').waitFor();
  // A number whose operator cannot be told (Africell's range) leaves the choice to the manager.
  await payout.getByLabel('Mobile money number').fill('0901234567');
  await payout.getByText('The operator cannot be told from this number', { exact: false }).waitFor();
  assert.equal(await payout.getByLabel('Operator').inputValue(), '');
  await payout.getByLabel('Mobile money number').fill('+243990000003');
  await payout.getByText('From the number: Airtel Money.').waitFor();
  // More than is owed is refused on the phone, what was typed kept; a part is paid.
  await payout.getByLabel(/^Amount in US dollars/).fill('99999');
  await payout.getByRole('button', { name: 'Send the money' }).click();
  await payout.getByText('Pay at least a cent and no more than is owed.').first().waitFor();
  assert.equal(await payout.getByLabel(/^Amount in US dollars/).inputValue(), '99999');
  await payout.getByLabel(/^Amount in US dollars/).fill('1,50');
  await payout.getByText('$1.50 to Amani Bahati, on +243990000003 (Airtel Money).').waitFor();
  assert.match(await amani.innerText(), new RegExp(`owed \\$${owed.replace('.', '\\.')}`), 'nothing moved yet');
  await payout.getByRole('button', { name: 'Send the money' }).click();
  await amani.getByText('$1.50 paid').waitFor();
  // The rest, prefilled.
  await amani.getByRole('button', { name: 'Pay by mobile money' }).click();
  const rest = (Number(owed) - 1.5).toFixed(2);
  assert.equal(await payout.getByLabel(/^Amount in US dollars/).inputValue(), rest);
  await payout.getByRole('button', { name: 'Send the money' }).click();
  await amani.getByText(`$${rest} paid`).waitFor();
  assert.match(await amani.innerText(), /owed \$0\.00/);
  await farmer.goto(`${origin}/dashboard`);
  await openSection(farmer, 'Cooperatives');
  await farmer.getByText(/^Owed to you by Kabare Coffee Growers: \$0\.00/).waitFor();
  await farmer.goto(`${origin}/product/${lots.body.data[0].product_id}`);

  await farmer.getByLabel('Language').first().selectOption('fr');
  await lotDetails.getByText('Lot de coopérative').waitFor();

  // Nobody ordered the beans: the manager takes the lot off sale and its 40 kg are held again.
  await page.reload();
  await openSection(page, 'Cooperatives');
  const offered = page.locator('.list-row', { hasText: 'Lot 1: Beans, grade A' }).last();
  await offered.getByRole('button', { name: 'Take off sale' }).click();
  await offered.waitFor({ state: 'detached' });
  await page.getByText('Beans, grade A: 48.5 kg received from 1 member Not in a lot: 48.5 kg.').waitFor();
  await context.close();
  await farmerContext.close();
});

test("a member records their plot from the phone's position, sees how precise it is, and is told what to do when there is none", async () => {
  const { origin } = env.server;
  // Location allowed; the first position is 80 m off: shown with its accuracy, taken again, saved.
  const context = await env.browser.newContext({
    ...PHONE,
    permissions: ['geolocation'],
    geolocation: { latitude: -2.6152, longitude: 28.7804, accuracy: 80 },
  });
  const page = await context.newPage();
  await signIn(page, origin, 'habimana@mavuno.demo');
  await openSection(page, 'Cooperatives');
  const plot = page.locator('.plot-line');
  // A bean cooperative's member is not told of coffee buyers for Europe.
  await plot
    .getByText("Your plot's place is not recorded: with it, buyers can see where your harvest comes from.")
    .waitFor();
  await plot.getByRole('button', { name: 'Record my plot here' }).click();
  await plot.getByText('Position found: -2.61520, 28.78040, to within about 80 m.').waitFor();
  await plot.getByText(/^That is not precise enough for a plot/).waitFor();
  await context.setGeolocation({ latitude: -2.61534, longitude: 28.78055, accuracy: 9 });
  await plot.getByRole('button', { name: 'Take it again' }).click();
  await plot.getByText('Position found: -2.61534, 28.78055, to within about 9 m.').waitFor();
  assert.equal(await plot.getByText(/not precise enough/).count(), 0);
  await plot.getByRole('button', { name: 'Save as my plot' }).click();
  await plot.getByText('Your plot: -2.61534, 28.78055').waitFor();
  const mine = await call(page, '/me/cooperatives');
  const membership = mine.body.data.find((m) => m.plot);
  assert.deepEqual(membership.plot, { latitude: -2.61534, longitude: 28.78055 });
  await context.close();

  // Location not allowed, in French: why, and what to do, nothing saved.
  const refusedContext = await env.browser.newContext(PHONE);
  const refused = await refusedContext.newPage();
  await signIn(refused, origin, 'habimana@mavuno.demo');
  await refused.goto(`${origin}/dashboard?section=cooperative&lng=fr`);
  const line = refused.locator('.plot-line');
  await line.getByRole('button', { name: 'Enregistrer mon champ ici' }).click();
  await line
    .getByRole('alert')
    .getByText(/^MAVUNO n'a pas le droit d'utiliser la position de ce téléphone/)
    .waitFor();
  await line.getByText('Votre champ : -2.61534, 28.78055').waitFor();
  await refusedContext.close();
});

test('a visitor finds the cooperatives from the menu and from the footer, in French', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${origin}/marketplace?lng=fr`);
  await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await page.locator('#mobile-menu').getByRole('link', { name: 'Coopératives' }).click();
  await page.getByRole('heading', { name: 'Coopératives', level: 1 }).waitFor();
  await page.getByRole('link', { name: /Kabare Coffee Growers/ }).waitFor();
  await page.goto(`${origin}/news?lng=fr`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Coopératives' }).click();
  await page.getByRole('heading', { name: 'Coopératives', level: 1 }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, 'nothing wider than the phone');
  await context.close();
});

test('a manager answers disputes: keeps one with a reason, corrects another without a signal, and the member is told', async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, 'agent@mavuno.demo');
  await controlledByServiceWorker(page);
  // Today's coffee of the member, weighed at Kavumu (not in a lot yet).
  const kabare = (await call(page, '/cooperatives')).body.data.find((c) => c.name === 'Kabare Coffee Growers');
  const farmerContext = await env.browser.newContext(PHONE);
  const farmer = await farmerContext.newPage();
  await signIn(farmer, origin, 'farmer@mavuno.demo');
  const me = (await call(farmer, '/me')).body.user;
  const weighed = await call(page, `/cooperatives/${kabare.id}/deliveries`, 'POST', {
    uid: crypto.randomUUID(),
    member_id: me.id,
    crop: 'coffee',
    grade: 'B',
    quantity: '33',
    unit: 'kg',
    delivered_on: new Date().toISOString().slice(0, 10),
    place: 'Kavumu station',
  });
  assert.equal(weighed.status, 201, JSON.stringify(weighed.body));
  // The member disputes it and an older entry, drawn into the lot on sale (the SMS command
  // and the app's button are tested elsewhere).
  const mine = await call(farmer, '/me/deliveries?per_page=100');
  const kept = mine.body.data.find((d) => d.cooperative_id === kabare.id && d.in_lot && !d.dispute);
  const corrected = mine.body.data.find((d) => d.id === weighed.body.data.id);
  for (const [d, reason] of [
    [kept, 'My bags were not all weighed'],
    [corrected, 'It was grade A, washed twice'],
  ]) {
    assert.equal((await call(farmer, `/deliveries/${d.id}/dispute`, 'POST', { reason })).status, 200);
  }

  await openSection(page, 'Cooperatives');
  const disputes = page.locator('#coop-disputes').locator('..');
  await disputes.getByRole('heading', { name: /^Disputes to answer \(\d+\)$/ }).waitFor();
  // It comes before the weigh-in form, and the book counts it.
  const before = await page.evaluate(
    () => document.querySelector('#coop-disputes').compareDocumentPosition(document.querySelector('#weigh-in')) & 4,
  );
  assert.equal(before, 4, 'the disputes come before the weigh-in form');
  await page
    .locator('#coop-books')
    .locator('..')
    .getByText(/^\d+ disputes? waits? for an answer$/)
    .first()
    .waitFor();
  const first = disputes.locator(`[data-reference="${kept.reference}"]`);
  await first.getByText('Disputed on').waitFor();
  assert.match(await first.innerText(), /My bags were not all weighed/);
  assert.match(await first.innerText(), new RegExp(`${kept.kilograms} kg Coffee, grade ${kept.grade}`));

  // Drawn into a lot, it cannot be corrected: the manager is told so.
  await first.getByText('It is in a lot: it can no longer be corrected.', { exact: false }).waitFor();
  assert.equal(await first.getByRole('button', { name: 'Correct the entry' }).count(), 0);
  // Kept: a reason is required, and what was typed stays when the network is down.
  await first.getByRole('button', { name: 'Keep it as it is' }).click();
  await first.getByRole('button', { name: 'Keep the entry' }).click();
  await first.getByText('Say why: the member reads it.').first().waitFor();
  await first.getByLabel(/^Why the entry stays/).fill('Weighed twice in front of you, same weight');
  await context.network.cut();
  await first.getByRole('button', { name: 'Keep the entry' }).click();
  await first.getByRole('alert').waitFor();
  assert.equal(
    await first.getByLabel(/^Why the entry stays/).inputValue(),
    'Weighed twice in front of you, same weight',
  );

  // Corrected without a signal: saved on the phone, sent when the network is back.
  const second = disputes.locator(`[data-reference="${corrected.reference}"]`);
  await second.getByRole('button', { name: 'Correct the entry' }).click();
  await second.getByLabel('Grade').selectOption('A');
  await second.getByLabel(/^What was wrong/).fill('Grade A after a second look');
  await second.getByRole('button', { name: 'Save the correction' }).click();
  await second.getByText('Correction saved on this phone: it is sent as soon as there is a signal.').waitFor();
  await context.network.restore();
  // (The phone tries again on its own: 5, 10, 20 s after failures.)
  await second.waitFor({ state: 'detached', timeout: 60_000 });
  await first.getByRole('button', { name: 'Keep the entry' }).click();
  await first.waitFor({ state: 'detached' });

  // The member reads both answers in the app, and got them by SMS.
  await farmer.reload();
  await openSection(farmer, 'Cooperatives');
  await farmer
    .getByText('Your dispute was answered: the entry stays. Weighed twice in front of you, same weight')
    .waitFor();
  await farmer.getByText('Your dispute was answered with a correction: Grade A after a second look').waitFor();
  // By SMS (with no SMS provider, each stays in the outbox): the reason the entry stays,
  // and the correction's receipt after the first receipt of the entry it replaced.
  const texts = () => env.server.texts(me.phone_number);
  for (let i = 0; i < 50 && !texts().some((l) => l.includes('Weighed twice in front of you, same weight')); i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const keptText = texts().find((l) => l.includes('Weighed twice in front of you, same weight'));
  assert.ok(keptText?.includes(kept.reference), `the reason, with the entry's reference: ${keptText}`);
  assert.equal(texts().filter((l) => l.includes(corrected.reference)).length, 2, 'the receipt, then the correction');
  const book = await call(page, `/deliveries/${corrected.id}/keep`, 'POST', { note: 'again' });
  assert.equal(book.body.code, 'not_disputed', 'answered once');
  await context.close();
  await farmerContext.close();
});

test("a buyer checks out a cooperative's lot: collected at its store on its days, delivered only when it says so", async () => {
  const { origin } = env.server;
  const context = await env.browser.newContext(PHONE);
  const page = await context.newPage();
  await signIn(page, origin, await newBuyer(origin, 'lot-buyer'));
  const listed = await call(page, '/products?per_page=100');
  const onSale = listed.body.data.filter((p) => p.lot && p.quantity > 0);
  const checkout = async (lot) => {
    await page.goto(`${origin}/product/${lot.id}`);
    await page
      .locator('.product-page')
      .getByRole('button', { name: /^(Add to Cart|Ajouter au panier)$/ })
      .click();
    await page.getByRole('link', { name: /^(Cart|Panier), / }).click();
    await page.getByRole('button', { name: /^(Proceed to Checkout|Passer la commande)$/ }).click();
    await page.getByRole('heading', { level: 1, name: /^(Checkout|Finaliser la commande)$/ }).waitFor();
  };

  // The demo's coffee lot is collected only, Monday to Saturday: no address, no delivery.
  const collected = onSale.find((p) => !p.shipping.available);
  await checkout(collected);
  await page
    .getByText(
      `Collected at ${collected.lot.pickup}, the store of ${collected.lot.cooperative_name} (free), Monday to Saturday.`,
    )
    .waitFor();
  assert.equal(await page.getByLabel(/^Address/).count(), 0, 'no address for what is collected');
  assert.equal(
    await page
      .getByRole('radio')
      .filter({ hasText: /Delivered/ })
      .count(),
    0,
    'not delivered',
  );
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.getByRole('heading', { name: 'Order placed' }).waitFor();
  let orders = await call(page, '/orders');
  assert.equal(orders.body.data[0].delivery, 'pickup');

  // The beans' cooperative delivers for 5 US dollars: in French, collected unless the buyer asks.
  const delivered = onSale.find((p) => p.shipping.available);
  await page.goto(`${origin}/product/${delivered.id}`);
  await page.getByLabel('Language').first().selectOption('fr');
  await page.locator('.product-page').getByText('La coopérative le livre aussi (5,00').waitFor();
  await checkout(delivered);
  await page
    .getByText(
      `À retirer à ${delivered.lot.pickup}, le magasin de ${delivered.lot.cooperative_name} (gratuit), mardi, jeudi et samedi.`,
    )
    .waitFor();
  const pickup = page.getByRole('radio', { name: 'Je le retire au magasin de la coopérative (gratuit)' });
  assert.equal(await pickup.isChecked(), true, 'a lot starts on collected');
  assert.equal(await page.getByLabel(/^Adresse/).count(), 0);
  await page.getByRole('radio', { name: 'Livré chez moi par la coopérative' }).check();
  await page.getByLabel(/^Adresse/).fill('Avenue du Lac 12');
  await page.getByLabel(/^Ville/).fill('Bukavu');
  await page.locator('.cart-summary').getByText('5,00').first().waitFor();
  await page.getByRole('button', { name: 'Passer la commande' }).click();
  await page.getByRole('heading', { name: 'Commande passée' }).waitFor();
  orders = await call(page, '/orders');
  assert.equal(orders.body.data[0].delivery, 'delivery');
  assert.equal(orders.body.data[0].shipping_cents, 500);
  await context.close();
});
