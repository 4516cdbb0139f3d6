import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'lighthouse', 'package.json'));
const { default: lighthouse } = await import(pathToFileURL(require.resolve('lighthouse')).href);
const constants = await import(pathToFileURL(require.resolve('lighthouse/core/config/constants.js')).href);
const chromeLauncher = await import(pathToFileURL(require.resolve('chrome-launcher')).href);
const origin = process.argv[2];
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new','--no-sandbox','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
try {
  for (const route of process.argv.slice(3)) {
    const { lhr } = await lighthouse(`${origin}${route}?lng=fr`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], throttling: constants.throttling.mobileRegular3G, disableStorageReset: false });
    const m = lhr.audits.metrics.details.items[0];
    console.log(route, 'score', lhr.categories.performance.score, 'LCP', Math.round(m.largestContentfulPaint), 'FCP', Math.round(m.firstContentfulPaint), 'observed FCP', m.observedFirstContentfulPaint, 'observed LCP', m.observedLargestContentfulPaint);
    for (const r of lhr.audits['network-requests'].details.items) console.log('  ', Math.round(r.networkRequestTime), Math.round(r.networkEndTime), r.transferSize, r.priority, r.url.replace(origin, ''));
  }
} finally { await chrome.kill(); }
