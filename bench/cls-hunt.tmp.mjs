// temporary: hunt the rare layout shift in Lighthouse's own loads
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeFileSync } from 'node:fs';
import { startServer } from './server.mjs';
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const require = createRequire(join(here, 'lighthouse', 'package.json'));
const { default: lighthouse } = await import(pathToFileURL(require.resolve('lighthouse')).href);
const constants = await import(pathToFileURL(require.resolve('lighthouse/core/config/constants.js')).href);
const chromeLauncher = await import(pathToFileURL(require.resolve('chrome-launcher')).href);
const server = await startServer(['--demo', '--web-dir', join(root, 'pwa/dist')]);
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new','--no-sandbox','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const routes = process.argv.slice(3);
const n = Number(process.argv[2]);
try {
  for (let i = 0; i < n; i++) for (const route of routes) {
    const { lhr, artifacts } = await lighthouse(`${server.origin}${route}?lng=fr`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], throttling: constants.throttling.mobileSlow4G, disableStorageReset: false });
    const cls = lhr.audits['cumulative-layout-shift']?.numericValue;
    console.log(route, i, 'cls', cls?.toFixed(3), 'score', lhr.categories.performance.score);
    if (cls > 0.05) {
      const events = artifacts.Trace.traceEvents;
      const nav = events.find((e) => e.name === 'navigationStart')?.ts ?? 0;
      const shifts = events.filter((e) => e.name === 'LayoutShift');
      for (const s of shifts) console.log(JSON.stringify({ t: (s.ts - nav) / 1000, score: s.args.data.score, recent: s.args.data.had_recent_input, nodes: s.args.data.impacted_nodes, region: s.args.data.region_rects }));
      const file = `/tmp/prof/shift-${route.replaceAll('/', '_')}-${i}.json`;
      writeFileSync(file, JSON.stringify({ lhr, trace: artifacts.Trace, devtoolsLogs: artifacts.DevtoolsLog }));
      console.log('saved', file);
    }
  }
} finally { await chrome.kill(); await server.stop(); }
