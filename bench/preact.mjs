// Issue 39's points 6 and 11 with React's renderer swapped for Preact's compat layer: the
// decision the stack leaves to the team (docs/decisions.md, "React DOM stays"), kept
// measurable. Builds the app with `react`, `react-dom` and their JSX runtime aliased to
// Preact (bench/preact's pinned copy, installed there once; the app's source and its
// packages untouched) into a throw-away folder, then runs bench/slow-3g.mjs and
// bench/sign-in.mjs on pwa/dist (React) and on that build, one after the other.
//
//   node bench/preact.mjs [runs]   (needs target/release/mavuno and pwa/dist; runs: 1)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pwa = join(here, '..', 'pwa');
const runs = process.argv[2] ?? '1';
const tools = join(here, 'preact');
if (!existsSync(join(tools, 'node_modules', 'preact'))) {
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: tools, stdio: 'inherit' });
}
const preact = (path) => join(tools, 'node_modules', 'preact', path);

const out = mkdtempSync(join(tmpdir(), 'mavuno-preact-'));
try {
  const { build } = await import(pathToFileURL(createRequire(join(pwa, 'package.json')).resolve('vite')).href);
  process.chdir(pwa);
  await build({
    configFile: join(pwa, 'vite.config.ts'),
    logLevel: 'warn',
    resolve: {
      alias: [
        { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
        { find: /^react\/jsx-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.mjs') },
        { find: /^react(-dom)?$/, replacement: preact('compat/dist/compat.mjs') },
      ],
    },
    build: { outDir: join(out, 'dist'), emptyOutDir: true },
    plugins: [
      {
        // Preact joins the packages every page runs (pwa/vite.config.ts, GROUPS' `vendor`).
        name: 'preact-in-vendor',
        config(config) {
          const vendor = config.build.rollupOptions.output.codeSplitting.groups.find((g) => g.name === 'vendor');
          const react = vendor.test;
          vendor.test = (id) => react.test(id) || /\/node_modules\/preact\//.test(id);
        },
      },
    ],
  });
  execFileSync('node', [join(pwa, 'scripts', 'precompress.mjs')], { cwd: out, stdio: 'inherit' });

  for (const [name, dir] of [
    ['React (pwa/dist)', join(pwa, 'dist')],
    ['Preact (the same app, its renderer swapped)', join(out, 'dist')],
  ]) {
    console.log(`\n== ${name}`);
    for (const bench of ['slow-3g.mjs', 'sign-in.mjs']) {
      execFileSync('node', [join(here, bench), runs], { stdio: 'inherit', env: { ...process.env, BENCH_WEB_DIR: dir } });
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
