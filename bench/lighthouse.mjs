// Lighthouse (mobile) on the public routes, on a throw-away release server with the
// demo, with Debian's Chromium: the performance score, layout shift, blocking time and
// largest contentful paint under Lighthouse's default mobile throttling (simulated
// slow 4G, 4x CPU) and under its Regular 3G preset (300 ms, 700 kbps, 4x CPU).
//
//   node bench/lighthouse.mjs [--why] [--runs N] [route ...]   (needs target/release/mavuno and
//                                                   pwa/dist; installs Lighthouse into bench/lighthouse once)
//
// --why also prints each page's largest contentful paint element, its phases and the
// long tasks (what to look at when a figure moves), of the run with the largest layout
// shift or else the lowest score. --runs N measures each page N times
// and prints the medians, the lowest score and the largest layout shift (blocking time
// moves by ±150 ms between runs on a busy 2-core machine).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WITH_APP, startServer } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const tools = join(here, 'lighthouse');
if (!existsSync(join(tools, 'node_modules', 'lighthouse'))) {
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: tools,
    stdio: 'inherit',
  });
}
const require = createRequire(join(tools, 'package.json'));
const { default: lighthouse } = await import(pathToFileURL(require.resolve('lighthouse')).href);
const constants = await import(pathToFileURL(require.resolve('lighthouse/core/config/constants.js')).href);
const chromeLauncher = await import(pathToFileURL(require.resolve('chrome-launcher')).href);

const args = process.argv.slice(2);
const why = args.includes('--why');
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1]) || 1) : 1;
const asked = args.filter((arg, i) => arg !== '--why' && i !== runsAt && i !== runsAt + 1);
const routes = asked.length
  ? asked
  : [
      '/',
      '/marketplace',
      '/training',
      '/news',
      '/about',
      '/programs',
      '/contact',
      '/help',
      '/terms',
      '/product/1',
      '/course/1',
      '/news/1',
      '/login',
      '/register',
      '/forgot-password',
      '/cart',
    ];
const server = await startServer(WITH_APP);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

const profiles = [
  ['mobile (simulated slow 4G)', constants.throttling.mobileSlow4G],
  ['Regular 3G', constants.throttling.mobileRegular3G],
];
function explain(lhr, origin) {
  const [element, phases] = lhr.audits['largest-contentful-paint-element']?.details?.items ?? [];
  console.log(`      LCP element ${element?.items?.[0]?.node?.snippet ?? '?'}`);
  const phase = (p) => `${p.phase} ${Math.round(p.timing)} ms`;
  console.log(`      ${(phases?.items ?? []).map(phase).join(', ')}`);
  const tasks = lhr.audits['long-tasks']?.details?.items ?? [];
  const task = (t) => `${(t.url ?? '').replace(origin, '')} ${Math.round(t.duration)} ms`;
  console.log(`      long tasks: ${tasks.map(task).join(', ') || 'none'}`);
  const shifts = lhr.audits['layout-shifts']?.details?.items ?? [];
  for (const shift of shifts)
    console.log(`      layout shift ${shift.score?.toFixed(3)}: ${shift.node?.snippet ?? '?'}`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

try {
  for (const [name, throttling] of profiles) {
    console.log(`\n${name}${runs > 1 ? `, median of ${runs}` : ''}:`);
    for (const route of routes) {
      const measured = [];
      // The run to explain with --why: the one with the largest layout shift, else the lowest score.
      let worst;
      for (let run = 0; run < runs; run += 1) {
        const { lhr } = await lighthouse(`${server.origin}${route}?lng=fr`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          throttling,
          // A fresh profile each time: a first visit, as the issue measures.
          disableStorageReset: false,
        });
        if (lhr.runtimeError) {
          console.log(`  ${route.padEnd(14)} run ${run + 1} failed: ${lhr.runtimeError.code}`);
          continue;
        }
        const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
        const figures = {
          score: lhr.categories.performance.score ?? 0,
          fcp: audit('first-contentful-paint') / 1000,
          lcp: audit('largest-contentful-paint') / 1000,
          cls: audit('cumulative-layout-shift'),
          tbt: audit('total-blocking-time'),
          lhr,
        };
        const worse = (a, b) => a.cls > b.cls || (a.cls === b.cls && a.score < b.score);
        if (!worst || worse(figures, worst)) worst = figures;
        measured.push(figures);
      }
      if (!worst) continue;
      const of = (key) => median(measured.map((m) => m[key]));
      const spread =
        runs > 1
          ? `  (lowest score ${Math.min(...measured.map((m) => m.score)).toFixed(2)}, ` +
            `largest CLS ${Math.max(...measured.map((m) => m.cls)).toFixed(3)})`
          : '';
      console.log(
        `  ${route.padEnd(14)} score ${of('score').toFixed(2)}  FCP ${of('fcp').toFixed(2)} s  ` +
          `LCP ${of('lcp').toFixed(2)} s  CLS ${of('cls').toFixed(3)}  TBT ${of('tbt').toFixed(0)} ms${spread}`,
      );
      if (why) explain(worst.lhr, server.origin);
    }
  }
} finally {
  await chrome.kill();
  await server.stop();
}
