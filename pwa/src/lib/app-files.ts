// The page's first script asks for the opened page's files and the reader's words with
// the app's code (main.tsx), rather than once the app has run, the router has matched
// the path and i18next has chosen a language: on slow 3G those were a round trip and
// ~25 KB after the app's code, ~1 s more before the app could take over.
//
// The build lists each page's files by the router's paths (app/pages.ts), with the
// sync's for a page that reads the catalogue, and each language's words, in the page itself (`#app-files`, vite.config.ts `appFiles`): the
// first script imports none of them, which would change how the build splits the app.
// Each is asked for as a `modulepreload` (fetched, not run), which the app's own import
// then finds, as Vite's loader of lazy chunks does.
import { guessLanguage } from './languages';

interface AppFiles {
  /** A page's files (`x-hash` for /assets/x-hash.js), by the router's path ('' is the home, `:id` one segment). */
  pages: Record<string, string[]>;
  words: Record<string, string>;
}

function appFiles(): AppFiles | null {
  try {
    return JSON.parse(document.getElementById('app-files')?.textContent ?? 'null') as AppFiles | null;
  } catch {
    return null;
  }
}

/** The router's path that `pathname` opens, of those in `paths` (a `:name` is one segment). */
export function pathOf(pathname: string, paths: string[]): string | undefined {
  const parts = pathname.split('/').filter(Boolean);
  return paths.find((path) => {
    const pattern = path.split('/').filter(Boolean);
    return pattern.length === parts.length && pattern.every((p, i) => p.startsWith(':') || p === parts[i]);
  });
}

function preload(files: string[]): void {
  for (const name of files) {
    const file = `/assets/${name}.js`;
    if (document.querySelector(`link[href="${file}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    document.head.appendChild(link);
  }
}

/** Starts fetching the files of the page at `pathname` and the words of the reader's language. */
export function preparePage(pathname: string): void {
  const files = appFiles();
  if (!files) return;
  const path = pathOf(pathname, Object.keys(files.pages));
  const words = files.words[guessLanguage()];
  preload([...(path === undefined ? [] : files.pages[path]!), ...(words ? [words] : [])]);
}
