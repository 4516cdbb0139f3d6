// Every language has every key, no empty text, the same placeholders, every
// literal key the code uses, and a translation for every error code the
// server documents (docs/api.md).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import fr from './fr.json';
import sw from './sw.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const catalogues = { en: flatten(en), fr: flatten(fr), sw: flatten(sw) };
/** A text's placeholders and markup (`<terms>…</terms>`, drawn by the page as its own element). */
const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}|<\/?\w+>/g)].map((m) => m[1] ?? m[0]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('translation catalogues', () => {
  for (const language of ['fr', 'sw'] as const) {
    it(`${language} has exactly the keys of en`, () => {
      expect([...catalogues[language].keys()].sort()).toEqual([...catalogues.en.keys()].sort());
    });

    it(`${language} keeps the placeholders and markup of en`, () => {
      for (const [key, text] of catalogues.en) {
        expect(placeholders(catalogues[language].get(key) ?? ''), key).toEqual(placeholders(text));
      }
    });
  }

  // A count before a word needs the word's singular ("1 produit affiché", not "1 produits
  // affichés"): i18next takes `key_one` for one (French: zero and one). Only texts where the
  // count stands alone as a figure (after a colon, in brackets, before a unit) go without.
  const FIGURES = [
    'sync.offline_waiting',
    'sync.waiting',
    'sync.refused',
    'market.in_stock',
    'cart.short',
    'products.low_stock',
    'orders.changed.short_stock',
    'comments.like',
  ];
  it('has a singular for every counted word, in every language', () => {
    for (const [language, catalogue] of Object.entries(catalogues)) {
      const missing = [...catalogue]
        .filter(([key, text]) => text.includes('{{count}}') && !key.endsWith('_one'))
        .map(([key]) => key.replace(/_other$/, ''))
        .filter((key) => !FIGURES.includes(key) && !catalogue.has(`${key}_one`));
      expect(missing, language).toEqual([]);
    }
  });

  it('has no empty text', () => {
    for (const [language, catalogue] of Object.entries(catalogues)) {
      for (const [key, text] of catalogue) expect(text.trim(), `${language}:${key}`).not.toBe('');
    }
  });

  it('has every literal key the code asks for', () => {
    const root = join(__dirname, '..');
    const missing: string[] = [];
    for (const file of sourceFiles(root)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\('([a-z0-9_.]+)'/g)) {
        // A plural key is written as `key_one` / `key_other` in the catalogue.
        const found = catalogues.en.has(match[1]!) || catalogues.en.has(`${match[1]}_other`);
        if (!found) missing.push(`${file.slice(root.length)}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('translates every error code the server documents', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/api.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Errors'), doc.indexOf('## Endpoints'));
    const codes = new Set([...section.matchAll(/`([a-z]+(?:_[a-z]+)+|[a-z]+_?[a-z]*)`/g)].map((m) => m[1]!));
    for (const word of ['code', 'message', 'errors', 'error_codes']) codes.delete(word);
    expect(codes.size).toBeGreaterThan(20);
    const missing = [...codes].filter((code) => !catalogues.en.has(`errors.${code}`));
    expect(missing).toEqual([]);
  });

  it('translates every error code the API document lists, as the server answered it', () => {
    // Each refusal's `x-codes` (docs/api.md, The document): recorded from what the server
    // answered, so a new refusal the app can meet cannot go untranslated.
    const doc = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8'));
    // Operations only other servers call (a payment provider's callbacks, the SMS and
    // USSD gateways, Prometheus): their refusals never reach a person.
    const machines = /^\/(payments\/callbacks\/|sms\/|ussd\/\{token\}|metrics$)/;
    const codes = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, { responses?: Record<string, { 'x-codes'?: string[] }> }>>(
      doc.paths,
    )) {
      if (machines.test(path)) continue;
      for (const operation of Object.values(item)) {
        for (const response of Object.values(operation.responses ?? {}))
          for (const code of response['x-codes'] ?? []) codes.add(code);
      }
    }
    expect(codes.size).toBeGreaterThan(80);
    const missing = [...codes].filter((code) => !catalogues.en.has(`errors.${code}`));
    expect(missing).toEqual([]);
  });
});
