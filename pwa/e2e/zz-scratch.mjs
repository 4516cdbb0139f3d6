import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-CD' });
const page = await context.newPage();
await page.goto('http://127.0.0.1:8091/about?lng=fr');
await page.waitForTimeout(3000);
await page.locator('.footer-about').screenshot({ path: '/tmp/w/footer.png' });
await browser.close();
