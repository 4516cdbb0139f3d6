import { afterEach, describe, expect, it } from 'vitest';
import { pathOf, prepareHome, preparePage } from './app-files';

const FILES = {
  pages: {
    '': ['home-page-1'],
    marketplace: ['marketplace-page-1', 'marketplace-page-1.css', 'form-1'],
    'product/:id': ['product-page-1', 'form-1'],
    dashboard: ['dashboard-page-1'],
  },
  reads: ['marketplace', 'product/:id', 'dashboard'],
  sync: ['bootstrap-1', 'engine-1'],
  words: { en: 'en-1', fr: 'fr-1', sw: 'sw-1' },
  signed: { en: 'signed-en-1', fr: 'signed-fr-1', sw: 'signed-sw-1' },
};

/** What the page was told to fetch, by file. */
const preloaded = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) =>
    link.getAttribute('href'),
  );
/** The stylesheets asked for in CORS mode, as Vite's loader asks (another mode's preload is not used). */
const styles = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"][crossorigin=""]')].map((link) =>
    link.getAttribute('href'),
  );

function page(files: unknown = FILES, text = JSON.stringify(files)) {
  document.body.innerHTML = `<script type="application/json" id="app-files">${text}</script>`;
}

describe("the page's first script asks for the opened page's files", () => {
  afterEach(() => {
    document.head.innerHTML = '';
    document.body.innerHTML = '';
    localStorage.clear();
  });

  it("matches the router's paths, one segment for each :name", () => {
    const paths = Object.keys(FILES.pages);
    expect(pathOf('/', paths)).toBe('');
    expect(pathOf('/marketplace', paths)).toBe('marketplace');
    expect(pathOf('/marketplace/', paths)).toBe('marketplace');
    expect(pathOf('/product/12', paths)).toBe('product/:id');
    expect(pathOf('/product/12/reviews', paths)).toBeUndefined();
    expect(pathOf('/nowhere', paths)).toBeUndefined();
  });

  it("asks for a page's files, the sync's when it reads the catalogue, and the reader's words, each once", () => {
    page();
    localStorage.setItem('i18nextLng', 'sw');
    preparePage('/product/7');
    preparePage('/product/7');
    expect(preloaded()).toEqual([
      '/assets/product-page-1.js',
      '/assets/form-1.js',
      '/assets/bootstrap-1.js',
      '/assets/engine-1.js',
      '/assets/sw-1.js',
    ]);
  });

  it('a page of words only gets its own files; the home while signing in, not the sync', () => {
    page();
    preparePage('/');
    prepareHome();
    expect(preloaded()).toEqual([
      '/assets/home-page-1.js',
      '/assets/en-1.js',
      '/assets/dashboard-page-1.js',
      '/assets/signed-en-1.js',
    ]);
  });

  it("a page's stylesheets are fetched as styles, not applied", () => {
    page();
    preparePage('/marketplace');
    expect(styles()).toEqual(['/assets/marketplace-page-1.css']);
    expect(preloaded()).toContain('/assets/marketplace-page-1.js');
    expect(preloaded()).not.toContain('/assets/marketplace-page-1.css.js');
  });

  it('a page without the list (the development server) or with a broken one asks for nothing', () => {
    preparePage('/marketplace');
    for (const broken of ['{', '"{"', '{"pages": {}}', 'null']) {
      page(null, broken);
      preparePage('/marketplace');
      prepareHome();
    }
    expect(preloaded()).toEqual([]);
  });
});
