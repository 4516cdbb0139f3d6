// A sign-in pressed in the server's first screen (lib/first-screen.ts) leaves at once, not
// once the app's code has come and run: on a new phone on slow 3G that was ~5 s later.
// The app's own sign-in (lib/session.tsx) takes its answer when it asks with the same
// name and password, and the app opens at the home when the answer came first
// (app/boot.tsx). Only `fetch` here: this is the page's first script, which must not wait
// for the app's code (lib/api.ts would bring it: see sync/early-pull.ts).
import type { User } from './account';

/** A typed phone number (no @, some digits) in a field that takes an email or a phone number. */
export function typedPhone(value: string): string | null {
  return !value.includes('@') && /\d/.test(value) ? value.trim() : null;
}

/** How a person signs in: `{email}` or `{phone_number}`, from one field that takes either. */
export function signInName(typed: string): { email: string } | { phone_number: string } {
  const phone = typedPhone(typed);
  return phone ? { phone_number: phone } : { email: typed.trim() };
}

/** The server's answer: its status and JSON (null when not JSON); null when it could not be reached. */
export interface SignInAnswer {
  status: number;
  statusText: string;
  data: unknown;
}

/** A sign-in's success: the person and their token. */
export interface SignedIn {
  user: User & { token: string };
}

/** Not waited for longer than the app's own requests (lib/silence.ts, not imported: see above). */
const GIVE_UP_MS = 30_000;

let early: { name: string; password: string; answer: Promise<SignInAnswer | null>; settled: boolean } | null = null;
let signedIn: SignedIn | null = null;

/** Sends a sign-in now; `then` hears its answer (null: the server could not be reached). */
export function signInEarly(name: string, password: string, then?: (answer: SignInAnswer | null) => void): void {
  const answer = fetch('/api/v1/users/login', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ user: { ...signInName(name), password } }),
    signal: AbortSignal.timeout?.(GIVE_UP_MS),
  })
    .then(async (response) => {
      const text = await response.text();
      let data: unknown = null;
      try {
        data = JSON.parse(text);
      } catch {
        // A proxy's page: not the server's answer.
      }
      return { status: response.status, statusText: response.statusText, data };
    })
    .catch(() => null);
  const sent = { name, password, answer, settled: false };
  early = sent;
  void answer.then((answered) => {
    sent.settled = true;
    if (early === sent && answered?.status === 200 && isSignedIn(answered.data)) signedIn = answered.data;
    then?.(answered);
  });
}

/** A sign-in's answer that signs the person in: the person and their token. */
export function isSignedIn(data: unknown): data is SignedIn {
  const user = (data as Partial<SignedIn> | null)?.user;
  return typeof user?.token === 'string' && typeof user.id === 'number';
}

/** What the app's client says of a request that had no answer (lib/api.ts, `send`). */
const NO_ANSWER: SignInAnswer = {
  status: 0,
  statusText: '',
  data: { code: 'network_error', message: 'Network error' },
};

/**
 * The server's answer to the sign-in sent early with `name` and `password`, once; null
 * when none was sent with them, or when the server could not be reached before the app
 * asked (the app then asks itself: the network may be back). Still on its way when the
 * app asks, it is the app's sign-in: its failure then is said (`network_error`), not
 * waited for a second time.
 */
export async function takeEarlySignIn(name: string, password: string): Promise<SignInAnswer | null> {
  const sent = early;
  if (!sent || sent.name !== name || sent.password !== password) return null;
  early = null;
  signedIn = null;
  if (sent.settled) return sent.answer;
  return (await sent.answer) ?? NO_ANSWER;
}

/** Forgets the early sign-in (changed after its answer: the app's form sends anew). */
export function forgetEarlySignIn(): void {
  early = null;
  signedIn = null;
}

/** The person an early sign-in has signed in, once (the app then opens at the home). */
export function takeEarlySession(): SignedIn | null {
  const done = signedIn;
  signedIn = null;
  if (done) early = null;
  return done;
}
