import { useEffect } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigationType, useRoutes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider, useSession } from '../lib/session';
import { setupI18n } from '../lib/i18n';
import { sampleUser, scriptFetch } from '../test-support';
import { RequireAuth } from './guards';
import { isAppArea } from '../lib/paths';

beforeAll(async () => {
  const i18n = setupI18n();
  await i18n.changeLanguage('en');
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** Where the router is: the path, how it got there, and the state it carries. */
let seen: { path: string; action: string; state: unknown } | null = null;
function Probe() {
  const location = useLocation();
  const action = useNavigationType();
  useEffect(() => {
    seen = { path: location.pathname, action, state: location.state };
  });
  return null;
}

function SignOutHere() {
  const { logout } = useSession();
  return (
    <button type="button" onClick={() => void logout()}>
      sign out
    </button>
  );
}

function Routes() {
  return useRoutes([
    { path: '/', element: <p>home page</p> },
    { element: <RequireAuth />, children: [{ path: '/dashboard', element: <SignOutHere /> }] },
    { path: '/login', element: <p>login page</p> },
  ]);
}

function renderAt(path: string) {
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={['/', path]} initialIndex={1}>
        <Routes />
        <Probe />
      </MemoryRouter>
    </SessionProvider>,
  );
}

describe('guarded routes', () => {
  it('send a signed-out person to /login, replacing the history entry', async () => {
    scriptFetch({});
    renderAt('/dashboard');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(seen).toEqual({ path: '/login', action: 'REPLACE', state: { from: '/dashboard' } });
  });

  it('wait for the session, then show the page', async () => {
    localStorage.setItem('token', 'stored');
    scriptFetch({ 'GET /me': { status: 200, body: { success: true, user: sampleUser } } });
    renderAt('/dashboard');
    expect(screen.getByRole('status')).toHaveTextContent('Loading dashboard...');
    expect(await screen.findByRole('button', { name: 'sign out' })).toBeInTheDocument();
  });

  it('send someone who signs out on a guarded page home, not to the sign-in form', async () => {
    localStorage.setItem('token', 'stored');
    scriptFetch({
      'GET /me': { status: 200, body: { success: true, user: sampleUser } },
      'POST /auth/logout': { status: 200, body: { success: true } },
    });
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'sign out' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(seen).toEqual({ path: '/', action: 'REPLACE', state: null });
  });
});

describe('app area', () => {
  it('is the dashboard, profile, orders and checkout, without the public header', () => {
    for (const path of ['/dashboard', '/profile', '/orders', '/checkout', '/orders/12'])
      expect(isAppArea(path)).toBe(true);
    for (const path of ['/', '/marketplace', '/profiles', '/login']) expect(isAppArea(path)).toBe(false);
  });
});
