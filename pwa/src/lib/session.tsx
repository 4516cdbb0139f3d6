// The signed-in person (docs/product.md, Statuses). A stored token loads the user at
// start; sign-in and sign-up store the token and the person their answer carries (no
// second round trip before the home: on a slow link each is most of a second); sign-out
// clears both even when the server cannot be reached.
//
// Offline-first departure: when the network is down at start, the last
// known user (kept beside the token) is used instead of signing the person
// out; only an answer from the server ends a session.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { answered, api, ApiError, getToken, onUnauthorized, setToken } from './api';
import type { User } from './account';
import { signInName, takeEarlySignIn, type SignedIn } from './early-sign-in';

const USER_CACHE_KEY = 'mavuno.user';

export type SessionStatus = 'loading' | 'ready';

interface SessionValue {
  user: User | null;
  status: SessionStatus;
  /** The person signed out here (not a session the server ended): a guarded page goes home, not to the sign-in form. */
  signedOut: boolean;
  /** Signs in with an email or a phone number (lib/validation.ts, signInName). */
  login(emailOrPhone: string, password: string): Promise<User>;
  register(form: FormData): Promise<User>;
  logout(): Promise<void>;
  /** Replaces the user after a profile change. */
  updateUser(user: User): void;
}

const SessionContext = createContext<SessionValue | null>(null);

function readCachedUser(): User | null {
  try {
    const text = localStorage.getItem(USER_CACHE_KEY);
    return text ? (JSON.parse(text) as User) : null;
  } catch {
    return null;
  }
}

/** The person last signed in on this phone, known before the server answers (e.g. whose cart to show). */
export function cachedUserId(): number | null {
  return readCachedUser()?.id ?? null;
}

function cacheUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(USER_CACHE_KEY, JSON.stringify(user));
    else localStorage.removeItem(USER_CACHE_KEY);
  } catch {
    // Without storage the session lasts as long as the page.
  }
}

/**
 * The session of a sign-in the app did not send itself (lib/early-sign-in.ts), kept as the
 * app's own would be, before the app starts: it then opens as on a phone signed in before.
 */
export function keepSession({ user }: SignedIn): void {
  const { token, ...me } = user;
  setToken(token);
  cacheUser(me);
}

export async function fetchMe(): Promise<User> {
  const response = await api<{ user: User }>('/me');
  return response.user;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  // A phone signed in before opens as that person at once, as it would offline: on a link
  // that carries no data, asking the server first left the screen on "Loading your
  // account" until the request gave up. The server is asked meanwhile; only its "no"
  // (401) signs the person out.
  const [user, setUserState] = useState<User | null>(() => (getToken() ? readCachedUser() : null));
  const [status, setStatus] = useState<SessionStatus>(() => (getToken() && !user ? 'loading' : 'ready'));
  const [signedOut, setSignedOut] = useState(false);

  const setUser = useCallback((next: User | null) => {
    setUserState(next);
    cacheUser(next);
  }, []);

  const clear = useCallback(() => {
    setToken(null);
    setUser(null);
  }, [setUser]);

  useEffect(() => {
    if (!getToken()) return;
    let cancelled = false;
    fetchMe()
      .then((me) => !cancelled && setUser(me))
      .catch((error: unknown) => {
        if (cancelled) return;
        // Only the server saying the session is over ends it; no signal or a
        // server in trouble (5xx, 429) keeps the last known person signed in.
        const cached = readCachedUser();
        const ended = error instanceof ApiError && error.status === 401;
        if (!ended && cached) setUserState(cached);
        else clear();
      })
      .finally(() => !cancelled && setStatus('ready'));
    return () => {
      cancelled = true;
    };
  }, [clear, setUser]);

  // Any 401 from the server (outside sign-in) ends the session here too.
  useEffect(() => onUnauthorized(() => setUser(null)), [setUser]);

  const startSession = useCallback(
    (token: string, me: User) => {
      setToken(token);
      setUser(me);
      setStatus('ready');
      setSignedOut(false);
      return me;
    },
    [setUser],
  );

  const login = useCallback(
    async (emailOrPhone: string, password: string) => {
      // Pressed in the server's first screen, it has left already: its answer, not a second sign-in.
      const early = await takeEarlySignIn(emailOrPhone, password);
      const response = early
        ? answered<SignedIn>(early, early.data, { keepTokenOn401: true })
        : await api<SignedIn>('/users/login', {
            method: 'POST',
            json: { user: { ...signInName(emailOrPhone), password } },
            keepTokenOn401: true,
          });
      const { token, ...me } = response.user;
      return startSession(token, me);
    },
    [startSession],
  );

  const register = useCallback(
    async (form: FormData) => {
      const response = await api<{ data: { token: string; user: User } }>('/users', {
        method: 'POST',
        form,
        keepTokenOn401: true,
      });
      return startSession(response.data.token, response.data.user);
    },
    [startSession],
  );

  const logout = useCallback(async () => {
    try {
      await api('/auth/logout', { method: 'POST' });
    } catch {
      // Signed out here whatever the server says.
    } finally {
      setSignedOut(true);
      clear();
    }
  }, [clear]);

  const value = useMemo(
    () => ({ user, status, signedOut, login, register, logout, updateUser: setUser }),
    [user, status, signedOut, login, register, logout, setUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** Sign out and go home (docs/product.md, Screens). Signed out on a guarded page, its
 * guard goes home too (RequireAuth, `signedOut`), whichever comes first. */
export function useSignOut(): () => Promise<void> {
  const { logout } = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    navigate('/');
    await logout();
  }, [logout, navigate]);
}
