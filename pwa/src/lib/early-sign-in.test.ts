import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleUser, scriptFetch } from '../test-support';
import { signInEarly, takeEarlySession, takeEarlySignIn, type SignInAnswer } from './early-sign-in';

const yes = { status: 200, body: { success: true, user: { ...sampleUser, token: 'fresh' } } };

/** The answer `then` heard, once it has come. */
function sent(name: string, password: string): Promise<SignInAnswer | null> {
  return new Promise((resolve) => signInEarly(name, password, resolve));
}

afterEach(() => vi.unstubAllGlobals());

describe('a sign-in sent from the first screen', () => {
  it('leaves as the app sends it, and its yes opens the app signed in, once', async () => {
    const calls = scriptFetch({ 'POST /users/login': yes });
    expect((await sent('0991 234 567', 'secret1'))?.status).toBe(200);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /users/login']);
    const body = JSON.parse((vi.mocked(fetch).mock.calls[0]![1] as RequestInit).body as string) as unknown;
    expect(body).toEqual({ user: { phone_number: '0991 234 567', password: 'secret1' } });
    expect(takeEarlySession()?.user.token).toBe('fresh');
    expect(takeEarlySession()).toBeNull();
    // Taken by the app's start: its form sends anew.
    expect(await takeEarlySignIn('0991 234 567', 'secret1')).toBeNull();
  });

  it('gives its answer to the app’s sign-in with the same name and password, and only then', async () => {
    scriptFetch({ 'POST /users/login': { status: 401, body: { code: 'invalid_credentials', message: 'No' } } });
    await sent('amani@example.com', 'wrong');
    expect(takeEarlySession()).toBeNull();
    expect(await takeEarlySignIn('amani@example.com', 'other')).toBeNull();
    expect(await takeEarlySignIn('amani@example.com', 'wrong')).toEqual({
      status: 401,
      statusText: '',
      data: { code: 'invalid_credentials', message: 'No' },
    });
    expect(await takeEarlySignIn('amani@example.com', 'wrong')).toBeNull();
  });

  it('without the network, leaves the app to ask itself', async () => {
    scriptFetch({ 'POST /users/login': 'offline' });
    expect(await sent('amani@example.com', 'secret1')).toBeNull();
    expect(takeEarlySession()).toBeNull();
    expect(await takeEarlySignIn('amani@example.com', 'secret1')).toBeNull();
  });

  it('still on its way when the app asks, is the app’s: no answer then is said, not waited for again', async () => {
    let fail = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((_, reject) => (fail = () => reject(new TypeError('Failed to fetch'))))),
    );
    signInEarly('amani@example.com', 'secret1');
    const taken = takeEarlySignIn('amani@example.com', 'secret1');
    fail();
    expect(await taken).toEqual({
      status: 0,
      statusText: '',
      data: { code: 'network_error', message: 'Network error' },
    });
  });
});
