/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { Plugin } from 'vite';

/**
 * Moves the app's stylesheets from <head> to the end of <body>: the inline shell in
 * index.html then paints as soon as the HTML arrives, instead of waiting for the CSS.
 * The app's module script still runs only after them (a parser-inserted stylesheet
 * blocks deferred scripts), so nothing shows unstyled.
 */
function stylesAfterShell(): Plugin {
  return {
    name: 'mavuno-styles-after-shell',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        const rest = links.reduce((out, link) => out.replace(link, ''), html);
        return rest.replace('</body>', `${links.map((l) => l.trim()).join('\n    ')}\n  </body>`);
      },
    },
  };
}

// The server (`mavuno serve`) hosts the build; in development Vite proxies the API to it.
const server = process.env.MAVUNO_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    stylesAfterShell(),
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
