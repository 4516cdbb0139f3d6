import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../lib/session';
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

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { element: <RequireAuth />, children: [{ path: '/dashboard', element: <p>dashboard content</p> }] },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: ['/', path], initialIndex: 1 },
  );
  render(
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>,
  );
  return router;
}

describe('guarded routes', () => {
  it('send a signed-out person to /login, replacing the history entry', async () => {
    scriptFetch({});
    const router = renderAt('/dashboard');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.historyAction).toBe('REPLACE');
    expect(router.state.location.state).toEqual({ from: '/dashboard' });
  });

  it('wait for the session, then show the page', async () => {
    localStorage.setItem('token', 'stored');
    scriptFetch({ 'GET /me': { status: 200, body: { success: true, user: sampleUser } } });
    renderAt('/dashboard');
    expect(screen.getByRole('status')).toHaveTextContent('Loading dashboard...');
    expect(await screen.findByText('dashboard content')).toBeInTheDocument();
  });
});

describe('app area', () => {
  it('is the dashboard, profile, orders and checkout, without the public header', () => {
    for (const path of ['/dashboard', '/profile', '/orders', '/checkout', '/orders/12'])
      expect(isAppArea(path)).toBe(true);
    for (const path of ['/', '/marketplace', '/profiles', '/login']) expect(isAppArea(path)).toBe(false);
  });
});
