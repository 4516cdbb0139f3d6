import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-CD' });
const page = await context.newPage();
const origin = 'http://127.0.0.1:8091';
await page.goto(origin + '/login?lng=fr');
await page.waitForTimeout(1500);
await page.locator('main form input:not([disabled])').first().fill('farmer@mavuno.demo');
await page.locator('input[type=password]').first().fill('mavuno-demo');
await page.locator('main form button[type=submit]').first().click();
await page.waitForTimeout(4000);
for (const section of ['Produits']) {
  await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: section }).click();
  await page.waitForTimeout(2000);
  console.log(`== ${section}\n` + (await page.locator('.dashboard-content').innerText()).slice(0, 1800));
}
await page.locator('.product-row').first().screenshot({ path: '/tmp/w/row.png' });
await browser.close();
