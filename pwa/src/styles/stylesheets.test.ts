// Where the styles live (docs/architecture.md, "Styles"): what every page carries is
// @imported by global.css, in the order of the cascade; a screen only a signed-in role
// opens brings its own stylesheet with its chunk. A screen that uses such a stylesheet's
// classes must import it (itself or through what it imports): otherwise it would be
// unstyled whenever it is opened before the screen that happens to bring them.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(__dirname, '..');

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, pattern);
    return pattern.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const read = (path: string) => readFileSync(path, 'utf8');
const stylesheets = files(src, /\.css$/);
const modules = files(src, /\.tsx?$/);

/** The classes a stylesheet's selectors name. */
function classesOf(css: string): Set<string> {
  const selectors = css.replace(/\/\*[\s\S]*?\*\//g, '').match(/[^{}]*(?={)/g) ?? [];
  return new Set(selectors.flatMap((s) => [...s.matchAll(/\.([a-zA-Z][\w-]*)/g)].map((m) => m[1]!)));
}

/** The classes a module gives its elements: the words of the strings in its `className`s. */
function classesUsed(code: string): Set<string> {
  const out = new Set<string>();
  for (const match of code.matchAll(/className=/g)) {
    let end = match.index + 'className='.length;
    if (code[end] === '"') end = code.indexOf('"', end + 1) + 1;
    else
      for (let depth = 0; end < code.length; end++) {
        if (code[end] === '{') depth++;
        else if (code[end] === '}' && --depth === 0) break;
      }
    const value = code.slice(match.index, end + 1);
    for (const literal of value.matchAll(/["'`]([^"'`]*)["'`]/g))
      for (const word of literal[1]!.replace(/\$\{[^}]*\}/g, ' ').split(/\s+/)) if (word) out.add(word);
  }
  return out;
}

/** The files `file` imports (relative imports only), resolved. */
function importsOf(file: string): string[] {
  return [...read(file).matchAll(/^(?:import|export)[^'"]*['"](\.[^'"]+)['"]/gm)].flatMap(([, spec]) => {
    const base = resolve(dirname(file), spec!);
    return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]
      .filter((p) => stylesheets.includes(p) || modules.includes(p))
      .slice(0, 1);
  });
}

/** Everything loaded with `file`: what it imports, and what those import. */
function loadedWith(file: string, seen = new Set<string>()): Set<string> {
  for (const next of importsOf(file)) {
    if (seen.has(next)) continue;
    seen.add(next);
    loadedWith(next, seen);
  }
  return seen;
}

const global = join(src, 'styles/global.css');
const everyPage = [...read(global).matchAll(/@import '([^']+)'/g)].map(([, spec]) => resolve(dirname(global), spec!));
const onEveryPage = new Set(everyPage.flatMap((css) => [...classesOf(read(css))]));
const ownStyles = stylesheets.filter((css) => css !== global && !everyPage.includes(css));

describe('stylesheets', () => {
  it('are each carried by every page or imported by a screen', () => {
    const imported = new Set(modules.flatMap(importsOf));
    expect(ownStyles.filter((css) => !imported.has(css)).map((css) => relative(src, css))).toEqual([]);
    expect(everyPage.length).toBeGreaterThan(5);
  });

  it('of a signed-in screen come with every module that uses their classes', () => {
    const missing: string[] = [];
    for (const css of ownStyles) {
      const own = [...classesOf(read(css))].filter((c) => !onEveryPage.has(c));
      for (const module of modules) {
        const used = classesUsed(read(module));
        const uses = own.filter((c) => used.has(c));
        if (uses.length && !loadedWith(module).has(css))
          missing.push(`${relative(src, module)} uses ${uses.join(', ')} without ${relative(src, css)}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('reads the classes a module uses', () => {
    const code = `<p className="a b"><i className={cx('c', on && \`d \${x}\`)} /></p>`;
    expect([...classesUsed(code)].sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});
