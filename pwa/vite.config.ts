/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { Plugin, Rolldown } from 'vite';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SILENT_FILES_GIVEN_UP } from './silent-files.ts';

/**
 * Puts the app's stylesheet into index.html, at the end of <body>: the inline shell
 * paints as soon as the first bytes of the HTML arrive, and the app's styles come with
 * the HTML instead of costing another round trip (400 ms on a slow 3G link) before the
 * app can show anything. The server allows each inline <style> by its hash (CSP), and
 * moves them into <head> when it writes a page's first screen (the app's markup, which
 * must never paint before its styles: server/src/web/page.rs).
 * Vite's loader of lazy chunks would still fetch the .css file (every lazy chunk imports
 * its helper from the entry chunk, so the entry's styles are among each one's
 * dependencies) and add the same rules again: 6 KB on every first visit. It skips a
 * stylesheet it finds a `<link rel="stylesheet">` to, so each inlined file keeps one that
 * no browser fetches: `disabled` (HTML, link type "stylesheet") and a type that is not
 * CSS, because Chromium's preload scanner ignores `disabled` (148 fetched the file while
 * the page was still arriving) but skips a stylesheet of a type it does not support.
 * Nothing asks for the file then, and the install leaves it out (`inlined`).
 */
const inlined = new Set<string>();
function inlineStyles(): Plugin {
  return {
    name: 'mavuno-inline-styles',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        // The dev server injects styles from JavaScript; only the build has a bundle.
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const styles: string[] = [];
        let out = html;
        for (const link of html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? []) {
          const file = /href="\/([^"]+\.css)"/.exec(link)?.[1];
          const asset = file ? bundle[file] : undefined;
          if (!file || asset?.type !== 'asset') continue;
          const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
          if (css.includes('</style')) throw new Error(`${file} cannot be inlined`);
          styles.push(`<style>${css}</style>`);
          out = out.replace(link, `\n    <link rel="stylesheet" href="/${file}" type="text/x-inlined" disabled>`);
          inlined.add(file);
        }
        return out.replace('</body>', `  ${styles.join('')}\n  </body>`);
      },
    },
  };
}

/** A chunk's file and every file it imports, at once or through them (not its lazy imports). */
function staticFiles(bundle: Rolldown.OutputBundle, file: string, into = new Set<string>()): Set<string> {
  const chunk = bundle[file];
  if (into.has(file) || chunk?.type !== 'chunk') return into;
  into.add(file);
  chunk.imports.forEach((imported) => staticFiles(bundle, imported, into));
  return into;
}

/**
 * The chunk of the lazily imported module `source` (a path under src/, a .ts or .tsx
 * without its extension, or a module the build makes, as `\0signed-in-words:fr`).
 */
function chunkOf(bundle: Rolldown.OutputBundle, source: string): Rolldown.OutputChunk {
  const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const named = (id: string | null | undefined) => id?.replace(/\.tsx?$/, '') === source;
  // Its own chunk, or the one its group made (`GROUPS`).
  const chunk =
    chunks.find((c) => c.isDynamicEntry && named(c.facadeModuleId)) ?? chunks.find((c) => c.moduleIds.some(named));
  if (!chunk) throw new Error(`no chunk for ${source}`);
  return chunk;
}

/**
 * Modules the build puts together, one chunk per group, rather than in as many chunks as
 * there are sets of pages importing them: on a phone's link each file costs a round trip
 * (400 ms on slow 3G) and its response's heads, and over HTTP/1.1 one of six connections,
 * which the sign-in itself then waited for.
 * - `data`: the synced records' stores and the sync's start (lib/entities, lib/sync), which
 *   every page that reads the catalogue, and the dashboard, load together: 14 files of
 *   0.4-4.7 KB. Not what the app's first code imports (the provider, the outbox, the
 *   engine's wire format), which stays with it, nor the application form's fields.
 * - `parts`: the small components and helpers that public pages and the signed-in screens
 *   share (forms, prices, order lines, lists' filters): installed, 16 files and 17.7 KB
 *   (5.1 KB compressed) in all, of which a public page used 2-6 files and 3.9-11.3 KB, the
 *   dashboard 13; the home none.
 * - `signed-parts`: what only signed-in screens share (the profile's panels, stat cards,
 *   the application form's fields, a product's details): never installed for a visitor
 *   (`markOnDemand`), and the build fails if a `parts` file names their words.
 * - `vendor`: the packages every page runs (React, React DOM, the router, i18next: named, so
 *   that a package only some screens use is not added to every first visit), which
 *   change only with their versions, so an update of the app does not fetch them again; and
 *   `frame`: our small modules that the app's first code and the pages share (the API
 *   client, the session, the cart, the words' loader, the icons...). Without them the
 *   build made ~10 files of 0.7-17 KB of what the app's first code imports, which a first
 *   visit's app waited for (bench/slow-3g.mjs: -0.1 s on /, /news and /marketplace).
 * - `local-db`: dexie and its React hooks, one file by a name that the browser tests know:
 *   the first render's code must not import it (a visitor's home, help or about page never
 *   opens a local database, and it is ~27 KB compressed on their first visit).
 * Only these modules: not what they import (`includeDependenciesRecursively`), which would
 * bring React and the router in.
 */
const GROUPS = [
  {
    name: 'vendor',
    test: /\/node_modules\/(react|react-dom|scheduler|react-router|i18next|react-i18next|use-sync-external-store)\/|@oxc-project\+runtime/,
  },
  {
    name: 'frame',
    test: /\/src\/(lib\/(api|silence|code-wait|session|validation|settings|i18n|cart|sync\/provider)|components\/icons)\.tsx?$/,
  },
  { name: 'local-db', test: /\/node_modules\/dexie(-react-hooks)?\// },
  {
    name: 'data',
    test: /\/src\/lib\/(entities\/(?!application-fields)|sync\/(?!provider|use-outbox|entities|outbox|state|protocol|transport|early-pull))/,
  },
  {
    name: 'parts',
    test: /\/src\/(components\/(form|country-field|price-options|price-range|order-lines|order-status-badge|app-page|pay-now|load-failed|loading-cards|stepper|terms-text|product-parts)\.tsx|lib\/(error-text|format|payments|reviews|list-filters|picture-sizes)\.ts)$/,
  },
  {
    name: 'signed-parts',
    test: /\/src\/(features\/profile\/(?!profile-page)|components\/(stat-card|product-details|product-photo|applications\/)|lib\/entities\/application-fields)/,
  },
];

const SRC = fileURLToPath(new URL('./src/', import.meta.url));
/** What the pages that read the synced catalogue import (useCatalogueDb and the lists). */
const CATALOGUE = `${SRC}lib/entities/catalogue.ts`;

/**
 * A file of the build as `#app-files` names it (lib/app-files.ts): `assets/x-hash.js` is
 * `x-hash`, and a stylesheet keeps its `.css`.
 */
function shortName(file: string): string {
  const name = /^assets\/([\w-]+(?:\.css)?)(?:\.js)?$/.exec(file)?.[1];
  if (!name) throw new Error(`${file} is not a script or stylesheet of the build`);
  return name;
}

/** `files` and the stylesheets they import (Vite's loader of lazy chunks waits for those too). */
function withStyles(bundle: Rolldown.OutputBundle, files: Iterable<string>): string[] {
  const styles = (file: string) => (bundle[file] as Rolldown.OutputChunk).viteMetadata?.importedCss ?? [];
  return [...new Set([...files].flatMap((file) => [file, ...styles(file)]))];
}

/**
 * Lets the app's code download with the page: main.tsx imports the app (app/boot.tsx)
 * only once the server's first screen has painted (lib/first-screen.ts), and a lazy
 * import's files are otherwise only asked for when it runs, a round trip later.
 * `modulepreload` fetches them at once without running them.
 *
 * And lists, for the page's first script (lib/app-files.ts), each page's own files by the
 * router's path (app/pages.ts, read here), which pages read the synced catalogue, the
 * sync's files and each language's words (and those of the signed-in screens), so that
 * it asks for the opened page's and the reader's with the app's code (`#app-files`, data,
 * not a script).
 */
function preloadBoot(): Plugin {
  /** Each module's static imports, by its id (for which pages read the catalogue). */
  const imports = new Map<string, readonly string[]>();
  /** Whether the module `source` (as `chunkOf` takes it) imports `target`, itself or through others, statically. */
  const importsModule = (source: string, target: string) => {
    const seen = new Set<string>();
    const stack = [...imports.keys()].filter((id) => id.replace(/\.tsx?$/, '') === source);
    while (stack.length) {
      const id = stack.pop()!;
      if (id === target) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(imports.get(id) ?? []));
    }
    return false;
  };
  return {
    name: 'mavuno-preload-boot',
    moduleParsed(info) {
      imports.set(info.id, info.importedIds);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const boot = chunkOf(bundle, `${SRC}app/boot`);
        const bootFiles = staticFiles(bundle, boot.fileName);
        // At low priority: they never hold the page's paint, and Lighthouse's simulation
        // (which counts a high-priority script as render-blocking) estimated the home's first
        // paint at 3.4 s on its Regular 3G preset for them (1.6 s at low; a throttled browser
        // paints at 0.6 s either way, and takes over in the same 3.7 s: bench/slow-3g.mjs).
        // The server keeps them for the loading shell only: a first screen gets none, or a
        // script that asks for the same files once it has painted (server/src/web/page.rs).
        const links = [...bootFiles]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}" fetchpriority="low">`);
        const table = readFileSync(`${SRC}app/pages.ts`, 'utf8');
        const pages: Record<string, string[]> = {};
        const reads: string[] = [];
        for (const [, quoted, bare, source] of table.matchAll(
          /^ {2}(?:'([^']*)'|([\w-]+)): \(\) => import\('([^']+)'\)/gm,
        )) {
          const path = quoted ?? bare!;
          const page = resolve(`${SRC}app`, source!);
          const own = staticFiles(bundle, chunkOf(bundle, page).fileName);
          pages[path] = withStyles(
            bundle,
            [...own].filter((file) => !bootFiles.has(file)),
          ).map(shortName);
          // By its modules, not its files: a file of `GROUPS` holds the catalogue's module
          // with others that pages import without reading the catalogue (the sign-in form's).
          if (importsModule(page, CATALOGUE)) reads.push(path);
        }
        // A page that reads the catalogue starts syncing once the app runs (lib/sync/provider.tsx).
        const syncFiles = staticFiles(bundle, chunkOf(bundle, `${SRC}lib/sync/bootstrap`).fileName);
        const sync = withStyles(
          bundle,
          [...syncFiles].filter((file) => !bootFiles.has(file)),
        ).map(shortName);
        if (Object.keys(pages).length !== table.match(/=> import\(/g)?.length) throw new Error('app/pages.ts misread');
        // Each language's words, and those of its signed-in screens (`catalogueParts`).
        const byLanguage = (source: (language: string) => string) =>
          Object.fromEntries(
            ['en', 'fr', 'sw'].map((language) => [language, shortName(chunkOf(bundle, source(language)).fileName)]),
          );
        const words = byLanguage((language) => `${SRC}locales/${language}.json`);
        const signed = byLanguage((language) => `${SIGNED_IN_ID}${language}`);
        const list = { pages, reads, sync, words, signed };
        const files = `<script type="application/json" id="app-files">${JSON.stringify(list)}</script>`;
        return html
          .replace('</head>', `  ${links.join('\n    ')}\n  </head>`)
          .replace('</body>', `  ${files}\n  </body>`);
      },
    },
  };
}

/**
 * The catalogues also hold the words only the server writes (emails, SMS, the USSD
 * menus: docs/ussd.md), so that one file per language is translated and checked;
 * the phone never shows them, so the build leaves them out of its language files.
 * Only in the build: the unit tests read the whole catalogues.
 */
const SERVER_ONLY_WORDS = ['email', 'sms', 'ussd'];
/**
 * The sections of words only the screens of a signed-in person use (the dashboard's
 * sections, the profile, the admin's and the field agent's screens): a file of their
 * own per language (`virtual:signed-in-words/<language>`), loaded when someone is signed
 * in (lib/i18n.ts, `signedInWords`), so that a visitor's first visit does not download
 * them (issue 39: ~8 KB of French). The build fails if a file of the install (what a
 * visitor's phone has) names one of them (`markOnDemand`).
 */
const SIGNED_IN_WORDS = [
  'account_types',
  'admin',
  'admin_blogs',
  'admin_comments',
  'admin_courses',
  'admin_settings',
  'agent',
  'analytics',
  'earnings',
  'editor',
  'options',
  'phone_menu',
  'products',
  'profile',
  'roles',
  'sales',
  'settings',
  'statuses',
  'wishlist',
];
const SIGNED_IN_ID = '\0signed-in-words:';
function catalogueParts(): Plugin {
  let build = false;
  return {
    name: 'mavuno-catalogue-parts',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    resolveId(id) {
      const language = /^virtual:signed-in-words\/(\w+)$/.exec(id)?.[1];
      return language ? `${SIGNED_IN_ID}${language}` : null;
    },
    load(id) {
      if (!id.startsWith(SIGNED_IN_ID)) return null;
      const language = id.slice(SIGNED_IN_ID.length);
      const catalogue = JSON.parse(readFileSync(`${SRC}locales/${language}.json`, 'utf8')) as Record<string, unknown>;
      const words = Object.fromEntries(SIGNED_IN_WORDS.map((section) => [section, catalogue[section]]));
      return `export default ${JSON.stringify(words)};`;
    },
    transform(code, id) {
      if (!build || !/\/src\/locales\/\w+\.json$/.test(id)) return null;
      const catalogue = JSON.parse(code) as Record<string, unknown>;
      for (const key of [...SERVER_ONLY_WORDS, ...SIGNED_IN_WORDS]) delete catalogue[key];
      return { code: JSON.stringify(catalogue), map: null };
    },
  };
}

/**
 * The files a visitor's phone does not need until someone asks for them: the screens of a
 * signed-in person (fetched when someone signs in, src/app/warm-screens.ts), the admin
 * screens, the forms that need the network (signing in and up), and the languages other
 * than the reader's (the reader's own is loaded at start). Left out of the service worker's
 * install (issue 39: a first visit cost 420-480 KB, mostly the install), they are cached
 * the first time the app loads them (an admin signing in, a language chosen), like any
 * other file of the build, by the runtime route below.
 */
const onDemand = new Set<string>();
function markOnDemand(): Plugin {
  const wanted = [
    /\/src\/features\/admin\//,
    /\/src\/locales\/\w+\.json$/,
    /^\0signed-in-words:/,
    // Signed-in screens, fetched when someone signs in (src/app/warm-screens.ts).
    /\/src\/app\/dashboard\/dashboard-page\.tsx$/,
    /\/src\/features\/profile\/profile-page\.tsx$/,
    /\/src\/features\/training\/learn-page\.tsx$/,
    // The drawn basic phone (docs/ussd.md), opened by few.
    /\/src\/features\/basic-phone\//,
    // Signing in, signing up and a new password: nothing of them works without the
    // network, and offline they say the page needs it once (the layout's error boundary).
    /\/src\/features\/auth\/(login-page|register-page|password-reset-pages)\.tsx$/,
  ];
  return {
    name: 'mavuno-on-demand-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const leaveOut = (chunk: (typeof chunks)[number]) => {
        onDemand.add(chunk.fileName);
        // Its own styles come with it, not with the install.
        for (const css of chunk.viteMetadata?.importedCss ?? []) onDemand.add(css);
      };
      for (const chunk of chunks)
        if (chunk.isDynamicEntry && wanted.some((w) => w.test(chunk.facadeModuleId ?? ''))) leaveOut(chunk);
      // And what only those chunks import (the admin's shared list, the stat cards, the
      // profile's panel…): it loads with them, never without them.
      for (let more = true; more;) {
        more = false;
        for (const chunk of chunks) {
          if (chunk.isEntry || onDemand.has(chunk.fileName)) continue;
          const importers = chunks.filter(
            (c) => c.imports.includes(chunk.fileName) || c.dynamicImports.includes(chunk.fileName),
          );
          if (importers.length && importers.every((c) => onDemand.has(c.fileName))) {
            leaveOut(chunk);
            more = true;
          }
        }
      }
      if (onDemand.size < 3) throw new Error('the admin and language chunks were not found');
      // A visitor's phone has no signed-in words: no file it installs may name them.
      const signedInKey = new RegExp(`[\`'"](${SIGNED_IN_WORDS.join('|')})\\.[a-z]`);
      for (const chunk of chunks) {
        const key = onDemand.has(chunk.fileName) ? null : signedInKey.exec(chunk.code)?.[0];
        if (key) throw new Error(`${chunk.fileName} is installed but names a signed-in word (${key.slice(1)}…)`);
      }
    },
  };
}

// The server (`mavuno serve`) hosts the build; in development Vite proxies the API to it.
const server = process.env.MAVUNO_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    catalogueParts(),
    inlineStyles(),
    preloadBoot(),
    markOnDemand(),
    VitePWA({
      // A new version waits for the person to accept it: never a reload mid-form.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      includeManifestIcons: false,
      manifest: {
        name: 'MAVUNO',
        short_name: 'MAVUNO',
        description: 'Marketplace, training and farmer services for East and Central Africa',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#1b5e3b',
        background_color: '#f7f5ef',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell and every screen a visitor and a buyer use, so the app opens with no
        // network; not the admin screens nor the other languages (markOnDemand), nor the
        // install icons (the browser fetches those itself when the app is installed).
        globPatterns: ['**/*.{js,css,html,svg,webmanifest}'],
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter((e) => !onDemand.has(e.url) && !inlined.has(e.url)),
            warnings: [],
          }),
        ],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
        runtimeCaching: [
          {
            // A file of the build the install left out, kept once the app has loaded it.
            urlPattern: ({ url }) => url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'assets',
              expiration: { maxEntries: 60, maxAgeSeconds: 60 * 60 * 24 * 365 },
              cacheableResponse: { statuses: [200] },
              plugins: [SILENT_FILES_GIVEN_UP],
            },
          },
          {
            // Market prices (docs/prices.md): the last answer of each filter, for offline;
            // a link that carries no data falls back to it after 4 s.
            urlPattern: ({ url }) => url.pathname === '/api/v1/prices' || url.pathname.startsWith('/api/v1/prices/'),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'prices',
              networkTimeoutSeconds: 4,
              expiration: { maxEntries: 80, maxAgeSeconds: 60 * 60 * 24 * 60 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/media/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'media',
              expiration: { maxEntries: 400, maxAgeSeconds: 60 * 60 * 24 * 90 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ],
  build: {
    target: 'es2020',
    sourcemap: false,
    rollupOptions: {
      output: { codeSplitting: { includeDependenciesRecursively: false, groups: GROUPS } },
      // A lazy import that some other module also imports statically loads
      // nothing lazily: the code lands in the importer's chunk. Fail the build.
      onwarn(warning, warn) {
        if (warning.code === 'INEFFECTIVE_DYNAMIC_IMPORT')
          throw new Error(`Lazy import made eager: ${warning.message}`);
        warn(warning);
      },
    },
  },
  // ws: the app listens for changes over a WebSocket (/api/v1/sync/listen).
  server: { proxy: { '/api': { target: server, ws: true }, '/media': server } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
