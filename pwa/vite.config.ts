/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { Plugin } from 'vite';

/**
 * Puts the app's stylesheet into index.html, at the end of <body>: the inline shell
 * paints as soon as the first bytes of the HTML arrive, and the app's styles come with
 * the HTML instead of costing another round trip (400 ms on a slow 3G link) before the
 * app can show anything. The server allows each inline <style> by its hash (CSP), and
 * moves them into <head> when it writes a page's first screen (the app's markup, which
 * must never paint before its styles: server/src/web/page.rs).
 * The .css file stays in the build: Vite's loader of lazy chunks asks for it (it
 * finds no <link> to it), and the styles it adds again are the same rules.
 */
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
          out = out.replace(link, '');
        }
        return out.replace('</body>', `  ${styles.join('')}\n  </body>`);
      },
    },
  };
}

/**
 * Lets the app's code download with the page: main.tsx imports the app (app/boot.tsx)
 * only once the server's first screen has painted (lib/first-screen.ts), and a lazy
 * import's files are otherwise only asked for when it runs, a round trip later.
 * `modulepreload` fetches them at once without running them.
 */
function preloadBoot(): Plugin {
  return {
    name: 'mavuno-preload-boot',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const boot = Object.values(bundle).find(
          (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/app/boot.tsx'),
        );
        if (boot?.type !== 'chunk') throw new Error('the app/boot.tsx chunk is missing');
        const files = new Set<string>();
        const visit = (file: string) => {
          const chunk = bundle[file];
          if (files.has(file) || chunk?.type !== 'chunk') return;
          files.add(file);
          chunk.imports.forEach(visit);
        };
        visit(boot.fileName);
        const links = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
        return html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
      },
    },
  };
}

// The server (`mavuno serve`) hosts the build; in development Vite proxies the API to it.
const server = process.env.MAVUNO_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    inlineStyles(),
    preloadBoot(),
    VitePWA({
      // A new version waits for the person to accept it: never a reload mid-form.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/*.png'],
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
        // The app shell and all three catalogues (a few KB each), so the
        // app opens, and changes language, with no network.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
        runtimeCaching: [
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
      // A lazy import that some other module also imports statically loads
      // nothing lazily: the code lands in the importer's chunk. Fail the build.
      onwarn(warning, warn) {
        if (warning.code === 'INEFFECTIVE_DYNAMIC_IMPORT')
          throw new Error(`Lazy import made eager: ${warning.message}`);
        warn(warning);
      },
    },
  },
  server: { proxy: { '/api': server, '/media': server } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
