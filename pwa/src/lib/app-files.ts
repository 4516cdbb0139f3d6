// The page's first script asks for the opened page's files and the reader's words with
// the app's code (main.tsx), rather than once the app has run, the router has matched
// the path and i18next has chosen a language: on slow 3G those were a round trip and
// ~25 KB after the app's code, ~1 s more before the app could take over.
//
// The build lists each page's files by the router's paths (app/pages.ts), which pages
// read the synced catalogue, the sync's files and each language's words, in the page
// itself (`#app-files`, vite.config.ts `preloadBoot`): the first script imports none of
// them, which would change how the build splits the app. Each is asked for as a
// `modulepreload` (fetched, not run), which the app's own import then finds, as Vite's
// loader of lazy chunks does.
import { guessLanguage } from './languages';
import { pullEarly } from './sync/early-pull';

interface AppFiles {
  /**
   * A page's files (`x-hash` for /assets/x-hash.js, `y-hash.css` for a stylesheet), by
   * the router's path ('' is the home, a `:name` one segment).
   */
  pages: Record<string, string[]>;
  /** The paths of the pages that read the synced catalogue, */
  reads: string[];
  /** and the files that start the sync (lib/sync/bootstrap.ts). */
  sync: string[];
  words: Record<string, string>;
  /** The words of the signed-in screens, by language (lib/i18n.ts, `signedInWords`). */
  signed: Record<string, string>;
}

/** The build's list, or null without one (the development server) or with one unreadable. */
function appFiles(): AppFiles | null {
  try {
    const files = JSON.parse(document.getElementById('app-files')?.textContent ?? 'null') as Partial<AppFiles> | null;
    const complete = files?.pages instanceof Object && Array.isArray(files.reads) && Array.isArray(files.sync);
    return complete && files.words instanceof Object && files.signed instanceof Object ? (files as AppFiles) : null;
  } catch {
    return null;
  }
}

/**
 * The file of `language`'s words (`x-hash` for /assets/x-hash.js), or of the words of its
 * signed-in screens, when the build lists it.
 */
export function wordsFile(language: string, part: 'public' | 'signed' = 'public'): string | null {
  const files = appFiles();
  return (part === 'public' ? files?.words[language] : files?.signed[language]) ?? null;
}

/** The router's path that `pathname` opens, of those in `paths` (a `:name` is one segment). */
export function pathOf(pathname: string, paths: string[]): string | undefined {
  const parts = pathname.split('/').filter(Boolean);
  return paths.find((path) => {
    const pattern = path.split('/').filter(Boolean);
    return pattern.length === parts.length && pattern.every((p, i) => p.startsWith(':') || p === parts[i]);
  });
}

/**
 * A script is fetched as a module, not run; a stylesheet (`.css`) fetched, not applied.
 * Both in CORS mode, as Vite's loader then asks for them: a preload of another mode is
 * not used, and the file is downloaded twice.
 */
function preload(files: string[]): void {
  for (const name of files) {
    const style = name.endsWith('.css');
    const file = style ? `/assets/${name}` : `/assets/${name}.js`;
    if (document.querySelector(`link[href="${file}"]`)) continue;
    const link = document.createElement('link');
    link.rel = style ? 'preload' : 'modulepreload';
    if (style) link.setAttribute('as', 'style');
    link.crossOrigin = '';
    link.href = file;
    document.head.appendChild(link);
  }
}

/**
 * Starts fetching the files of the page at `pathname`, the sync's when the page reads the
 * catalogue (and a visitor's first pull: sync/early-pull.ts), and the reader's words.
 */
export function preparePage(pathname: string): void {
  const files = appFiles();
  if (!files) return;
  const path = pathOf(pathname, Object.keys(files.pages));
  const words = files.words[guessLanguage()];
  const reads = path !== undefined && files.reads.includes(path);
  if (reads) pullEarly();
  const sync = reads ? files.sync : [];
  preload([...(path === undefined ? [] : files.pages[path]!), ...sync, ...(words ? [words] : [])]);
}

/**
 * The home's own files, for someone filling a sign-in form (the server's early one, or the
 * app's), so that on a slow link they are not first asked for once the server has
 * answered (~2 s of a new phone's sign-in at 400 kbps). Not the sync's: before the app
 * runs they would share the line with its code, which must come first to send the form.
 * The dashboard is every role's home, with the words of the signed-in screens; a role's
 * other screens wait for `warmScreens`.
 */
export function prepareHome(): void {
  const files = appFiles();
  const words = files?.signed[guessLanguage()];
  preload([...(files?.pages.dashboard ?? []), ...(words ? [words] : [])]);
  homeWarmers.forEach((warm) => warm());
}

const homeWarmers: (() => void)[] = [];
/**
 * Adds what the app itself does when a home may be next (app/boot.tsx: it runs the home's
 * code and adds its words while the person types, rather than after the server's answer).
 */
export function onPrepareHome(warm: () => void): void {
  homeWarmers.push(warm);
}
