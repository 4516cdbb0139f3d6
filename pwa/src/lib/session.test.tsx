import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api';
import { sampleUser, scriptFetch } from '../test-support';
import { keepSession, SessionProvider, useSession } from './session';
import { signInEarly } from './early-sign-in';

const wrapper = ({ children }: { children: ReactNode }) => <SessionProvider>{children}</SessionProvider>;
const unauthorized = {
  status: 401,
  body: { success: false, code: 'invalid_token', message: 'Your session is not valid.' },
};

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('session (docs/product.md, Statuses)', () => {
  it('a stored token loads the user at start', async () => {
    localStorage.setItem('token', 'stored');
    const calls = scriptFetch({ 'GET /me': { status: 200, body: { success: true, user: sampleUser } } });
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.user?.email).toBe(sampleUser.email);
    expect(calls[0]?.authorization).toBe('Bearer stored');
  });

  it('a phone signed in before opens as that person at once, and takes the server’s answer when it comes', async () => {
    localStorage.setItem('token', 'stored');
    localStorage.setItem('mavuno.user', JSON.stringify(sampleUser));
    const renamed = { ...sampleUser, full_name: 'Amani Bisimwa' };
    // The server answers only when the test says so: a link that carries no data.
    let answer = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            answer = () => resolve(Response.json({ success: true, user: renamed }));
          }),
      ),
    );
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.status).toBe('ready');
    expect(result.current.user?.id).toBe(sampleUser.id);
    act(() => answer());
    await waitFor(() => expect(result.current.user?.full_name).toBe('Amani Bisimwa'));
  });

  it('without a token nothing is loaded', async () => {
    const calls = scriptFetch({});
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.status).toBe('ready');
    expect(result.current.user).toBeNull();
    expect(calls).toEqual([]);
  });

  it('a failed load clears the token and the user', async () => {
    localStorage.setItem('token', 'revoked');
    localStorage.setItem('mavuno.user', JSON.stringify(sampleUser));
    scriptFetch({ 'GET /me': unauthorized });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(result.current.user).toBeNull();
    expect(result.current.status).toBe('ready');
    expect(localStorage.getItem('mavuno.user')).toBeNull();
  });

  it('a server error at start keeps the last known user and the token', async () => {
    localStorage.setItem('token', 'stored');
    localStorage.setItem('mavuno.user', JSON.stringify(sampleUser));
    scriptFetch({ 'GET /me': { status: 503, body: { success: false, code: 'server_busy', message: 'Busy' } } });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.user?.email).toBe(sampleUser.email);
    expect(localStorage.getItem('token')).toBe('stored');
  });

  it('offline at start, the last known user is kept (offline-first)', async () => {
    localStorage.setItem('token', 'stored');
    localStorage.setItem('mavuno.user', JSON.stringify(sampleUser));
    scriptFetch({ 'GET /me': 'offline' });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.user?.id).toBe(sampleUser.id);
    expect(localStorage.getItem('token')).toBe('stored');
  });

  it('sign-in stores the token and the person its answer carries, in one round trip', async () => {
    const calls = scriptFetch({
      'POST /users/login': { status: 200, body: { success: true, user: { ...sampleUser, token: 'fresh' } } },
    });
    const { result } = renderHook(() => useSession(), { wrapper });
    await act(() => result.current.login('amani@example.com', 'secret1'));
    expect(localStorage.getItem('token')).toBe('fresh');
    expect(result.current.user?.email).toBe(sampleUser.email);
    expect(result.current.status).toBe('ready');
    expect(calls.map((c) => `${c.method} ${c.path} ${c.authorization}`)).toEqual(['POST /users/login null']);
    // The person kept for offline starts is the person, not the token again.
    expect(JSON.parse(localStorage.getItem('mavuno.user') ?? '{}')).toEqual(sampleUser);
  });

  it('a sign-in pressed in the server’s first screen is taken from there, not sent again', async () => {
    const calls = scriptFetch({
      'POST /users/login': { status: 401, body: { code: 'invalid_credentials', message: 'Invalid email or password' } },
    });
    signInEarly('amani@example.com', 'wrong');
    const { result } = renderHook(() => useSession(), { wrapper });
    const error = await act(() => result.current.login('amani@example.com', 'wrong').catch((e: unknown) => e));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_credentials');
    expect(calls).toHaveLength(1);
    // Corrected in the app's form: its own sign-in.
    await act(() => result.current.login('amani@example.com', 'secret1').catch(() => undefined));
    expect(calls).toHaveLength(2);
  });

  it('a phone signed in by the first screen opens as that person (boot.tsx)', () => {
    scriptFetch({ 'GET /me': { status: 200, body: { success: true, user: sampleUser } } });
    keepSession({ user: { ...sampleUser, token: 'early' } });
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.user?.id).toBe(sampleUser.id);
    expect(localStorage.getItem('token')).toBe('early');
    expect(JSON.parse(localStorage.getItem('mavuno.user') ?? '{}')).toEqual(sampleUser);
  });

  it('sign-up stores the token and the new person from its answer', async () => {
    const calls = scriptFetch({
      'POST /users': {
        status: 201,
        body: { success: true, message: 'Welcome', data: { user: sampleUser, token: 'new' } },
      },
    });
    const { result } = renderHook(() => useSession(), { wrapper });
    await act(() => result.current.register(new FormData()));
    expect(localStorage.getItem('token')).toBe('new');
    expect(result.current.user?.id).toBe(sampleUser.id);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /users']);
  });

  it('sign-out clears token and user even when the server cannot be reached', async () => {
    localStorage.setItem('token', 'stored');
    scriptFetch({
      'GET /me': { status: 200, body: { success: true, user: sampleUser } },
      'POST /auth/logout': 'offline',
    });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.user).not.toBeNull());
    await act(() => result.current.logout());
    expect(result.current.user).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a 401 on any later call ends the session', async () => {
    localStorage.setItem('token', 'stored');
    scriptFetch({
      'GET /me': { status: 200, body: { success: true, user: sampleUser } },
      'GET /admin/users': unauthorized,
    });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.user).not.toBeNull());
    await act(async () => {
      await api('/admin/users').catch(() => undefined);
    });
    expect(result.current.user).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('api client', () => {
  it('a 401 removes the stored token, except on sign-in and sign-up', async () => {
    scriptFetch({
      'GET /me': unauthorized,
      'POST /users/login': { status: 401, body: { code: 'invalid_credentials', message: 'Invalid email or password' } },
    });
    localStorage.setItem('token', 'kept');
    const error = await api('/users/login', { method: 'POST', json: {}, keepTokenOn401: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_credentials');
    expect(localStorage.getItem('token')).toBe('kept');
    await api('/me').catch(() => undefined);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('reads field errors and their codes', async () => {
    scriptFetch({
      'POST /users': {
        status: 422,
        body: {
          success: false,
          code: 'validation_failed',
          message: 'Passwords do not match',
          errors: { password: ['x'] },
          error_codes: { password: ['passwords_do_not_match'] },
        },
      },
    });
    const error = (await api('/users', { method: 'POST', form: new FormData() }).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(422);
    expect(error.errorCodes).toEqual({ password: ['passwords_do_not_match'] });
  });

  it('a lost connection is a network error', async () => {
    scriptFetch({});
    const error = (await api('/me').catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([0, 'network_error']);
  });
});
