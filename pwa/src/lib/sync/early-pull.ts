// A visitor's first pull of the catalogue, asked for by the page's first script with the
// app's code (lib/app-files.ts, `preparePage`) rather than once the app has run and
// opened its database: on slow 3G that pull was a round trip (~0.6 s) after the app's
// code had come, before a catalogue page could take its first screen's place. The
// sync's first pull (transport.ts) takes its answer.
// Only for a phone with no one signed in and no visitor's database yet: any other pull
// goes from what the phone has (its cursor, its token).
import type { PullResponse } from './protocol';

/** Where lib/api.ts keeps a signed-in person's token (not imported: the first script would
 * then share a module with the app's chunks, and the build split its helpers into a file
 * of their own, one more request before the app runs). */
const TOKEN_KEY = 'token';

/** How many changes one pull asks for. */
export const PULL_LIMIT = 200;
/** The visitor's database (lib/sync/local-db.ts names each by its account). */
export const GUEST_DB = 'mavuno-guest';

let early: Promise<PullResponse | null> | null = null;

function signedIn(): boolean {
  try {
    return localStorage.getItem(TOKEN_KEY) !== null;
  } catch {
    return false;
  }
}

/** Asks for a visitor's first pull, unless someone is signed in or the phone has pulled before. */
export function pullEarly(): void {
  const databases = (globalThis.indexedDB as IDBFactory | undefined)?.databases;
  if (early || signedIn() || typeof databases !== 'function') return;
  early = databases
    .call(indexedDB)
    .then(async (databases) => {
      if (databases.some((database) => database.name === GUEST_DB)) return null;
      // Not waited for longer than the app's own requests (lib/silence.ts, not imported: see
      // TOKEN_KEY): the sync's first pull then asks itself.
      const answer = await fetch(`/api/v1/sync/pull?limit=${PULL_LIMIT}`, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout?.(30_000),
      });
      return answer.ok ? ((await answer.json()) as PullResponse) : null;
    })
    .catch(() => null);
}

/** The early pull's answer, once; null when there was none or it failed (the sync then asks itself). */
export function takeEarlyPull(): Promise<PullResponse | null> {
  const answer = early ?? Promise.resolve(null);
  early = null;
  return answer;
}
