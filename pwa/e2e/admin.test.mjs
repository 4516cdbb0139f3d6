// Admins review applications and manage people (issue: admin review, user
// management, field agents). The applicant and the admin are separate browsers.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PHONE, assertOffline, controlledByServiceWorker, serverAndBrowser, signIn } from './harness.mjs';

const env = serverAndBrowser();
const DESKTOP = { viewport: { width: 1280, height: 900 } };

async function openSection(page, name) {
  await page.getByRole('navigation').getByRole('button', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

async function downloadText(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

test('an admin approves with a comment; the applicant sees Approved and the farmer dashboard', async () => {
  const { origin } = env.server;
  const applicant = await (await env.browser.newContext(PHONE)).newPage();
  await signIn(applicant, origin, 'furaha@mavuno.demo');
  await applicant.getByRole('button', { name: 'Open menu' }).click();
  await applicant.getByRole('navigation').getByRole('button', { name: 'Applications' }).click();
  await applicant.locator('.application-card .badge', { hasText: 'Pending' }).waitFor();

  const admin = await (await env.browser.newContext(DESKTOP)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  await openSection(admin, 'Applications');
  const row = admin.getByRole('row').filter({ hasText: 'Furaha Namegabe' });
  assert.match(await row.innerText(), /Espoir Cirhuza/, 'the agent who filled it is shown');
  await row.getByRole('button', { name: 'Review' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Update application status' });
  await dialog.getByLabel('Approve').check();
  await dialog.getByLabel(/^Comment for the applicant/).fill('Karibu! Your cassava plots passed the visit.');
  await dialog.getByRole('button', { name: 'Update status' }).click();
  await admin.getByText('Application status updated').waitFor();
  await row.locator('.badge', { hasText: 'Approved' }).waitFor();
  assert.equal(
    await row.getByRole('button', { name: 'Review' }).count(),
    0,
    'a decided application cannot be reviewed again',
  );

  // The applicant's phone learns it at its next sync (here: the signal comes back).
  await applicant.context().setOffline(true);
  await applicant.context().setOffline(false);
  await applicant.locator('.application-card .badge', { hasText: 'Approved' }).waitFor();
  await applicant.getByText('Karibu! Your cassava plots passed the visit.').waitFor();
  await applicant.locator('.sidebar-user', { hasText: 'Farmer' }).waitFor();
  assert.ok(
    await applicant.getByRole('navigation').getByRole('button', { name: 'Products' }).count(),
    'the farmer dashboard',
  );
});

test('applications filter and export as CSV in the admin language', async () => {
  const { origin } = env.server;
  const page = await (await env.browser.newContext(DESKTOP)).newPage();
  await signIn(page, origin, 'superadmin@mavuno.demo');
  await openSection(page, 'Applications');
  await page.getByLabel('Search').fill('ndayishimiye');
  await page.getByText('Showing 1–1 of 1').waitFor();
  await page.getByLabel('Search').fill('nobody by that name');
  await page.getByText('No applications found matching your criteria.').waitFor();
  await page.getByLabel('Search').fill('');
  await page.getByText(/Showing 1–\d of \d/).waitFor();

  const { name, text } = await downloadText(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  assert.match(name, /^applications_\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  assert.match(lines[0], /^ID,Applicant,Email,Created by,Status/);
  assert.ok(
    lines.some((l) => l.includes('Jean-Bosco Ndayishimiye') && l.includes('Coopérative Twiyungunganye')),
    text,
  );

  await page.getByRole('complementary').getByLabel('Language').selectOption('fr');
  const french = await downloadText(page, () => page.getByRole('button', { name: 'Exporter en CSV' }).click());
  assert.match(french.text.replace(/^\uFEFF/, ''), /^ID,Demandeur,E-mail,Créée par,Statut/);
});

test('a super admin changes a role with history kept; an admin cannot change roles; users export', async () => {
  const { origin } = env.server;
  const page = await (await env.browser.newContext(DESKTOP)).newPage();
  await signIn(page, origin, 'superadmin@mavuno.demo');
  await openSection(page, 'Users');
  await page.getByLabel('Search').fill('mukamana');
  const row = page.getByRole('row').filter({ hasText: 'Claudine Mukamana' });
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
  await row.getByRole('button', { name: 'View' }).click();
  const dialog = page.getByRole('dialog', { name: 'Claudine Mukamana' });
  await dialog.getByText('No changes recorded yet.').waitFor();
  await dialog.getByLabel('Role').selectOption('field_agent');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await dialog.getByText('Neema Mwamba changed the role from Buyer to Field agent').waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await row.locator('.badge', { hasText: 'Field agent' }).waitFor();

  const { name, text } = await downloadText(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  assert.match(name, /^users_\d{4}-\d{2}-\d{2}\.csv$/);
  assert.match(
    text,
    /Claudine,Mukamana,mukamana@mavuno\.demo,'?\+?250780000008|Claudine,Mukamana,mukamana@mavuno\.demo,"'\+250780000008"/,
  );
  await page.getByLabel('Search').fill('nobody by that name');
  await page.getByText('No users found').waitFor();
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await page.getByText('No users to export').waitFor();

  const admin = await (await env.browser.newContext(DESKTOP)).newPage();
  await signIn(admin, origin, 'admin@mavuno.demo');
  await openSection(admin, 'Users');
  await admin.getByRole('row').filter({ hasText: 'Grace Uwimana' }).getByRole('button', { name: 'View' }).click();
  const grace = admin.getByRole('dialog', { name: 'Grace Uwimana' });
  await grace.getByText('Only a super admin can change roles.').waitFor();
  assert.equal(await grace.getByLabel('Role').isDisabled(), true);
  assert.equal(await grace.getByLabel('Status').isDisabled(), false, 'an admin may deactivate a buyer');
});

test('an admin who signed in once opens every section with the network cut', async () => {
  const context = await env.browser.newContext(DESKTOP);
  const page = await context.newPage();
  await signIn(page, env.server.origin, 'admin@mavuno.demo');
  await controlledByServiceWorker(page);
  // The admin's screens are fetched in the background (app/warm-screens.ts): wait until
  // nothing has crossed the network for 2 s.
  for (let last = -1, quiet = 0; quiet < 8;) {
    await page.waitForTimeout(250);
    const now = context.network.bytes.down;
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  await context.setOffline(true);
  await assertOffline(page);
  // Every section of the menu, but the drawn basic phone: it talks to the server's USSD menu.
  const menu = await page.getByRole('navigation').getByRole('button').allInnerTexts();
  const sections = menu.map((name) => name.trim()).filter((name) => name !== 'Phone menu');
  assert.ok(sections.includes('Market prices') && sections.length >= 10, sections.join(', '));
  for (const name of sections) {
    await openSection(page, name);
    // The section drawn, or the note that its code is not on this phone.
    await page.locator('.dashboard-content .card').first().waitFor();
    const failed = page.getByText('This part of the app could not be opened on this phone.');
    assert.equal(await failed.count(), 0, `${name} did not open offline`);
  }
  await context.close();
});
