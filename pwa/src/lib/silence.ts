/**
 * How long the app waits on the network for something that does not move: a request's
 * answer to begin, or its next bytes once it has (lib/api.ts), and a screen's code that
 * has not come (lib/code-wait.ts). On a signal that carries no data, a request otherwise
 * waits until the phone's TCP gives up, many minutes (docs/sync.md, A request that hears
 * nothing). Its own file, so that the first screen's code can read it without the API's.
 */
export const SILENCE_MS = 30_000;
