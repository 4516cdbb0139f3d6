import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { setupI18n } from '../../lib/i18n';
import { AdminHome } from './activity';

const figures = {
  users: 3,
  users_last_30_days: 1,
  products_on_sale: 2,
  products_low_stock: 0,
  orders: 1,
  orders_last_30_days: 1,
  revenue: 10,
  applications_waiting: 0,
};

function home(offsite: unknown) {
  const overview = { payments_simulated: false, figures, activity: [], ...(offsite === undefined ? {} : { offsite }) };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(overview), { headers: { 'Content-Type': 'application/json' } })),
  );
  render(
    <MemoryRouter>
      <AdminHome db={null} onOpen={() => {}} />
    </MemoryRouter>,
  );
}

beforeAll(async () => {
  await setupI18n().changeLanguage('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the super admin's home and the off-site copy", () => {
  it('says so when this server is the only copy of the data', async () => {
    home({ configured: false, state: 'none', failure: null, confirmed_at: null, media_at: null, lagging: false });
    expect((await screen.findByRole('status')).textContent).toMatch(/^This server is the only copy of your data/);
  });

  it('says when the store last confirmed the copy and the pictures', async () => {
    home({
      configured: true,
      state: 'ok',
      failure: null,
      confirmed_at: '2026-11-28T09:30:00Z',
      media_at: '2026-11-28T09:29:00Z',
      lagging: false,
    });
    const copy = await screen.findByRole('region', { name: 'Off-site copy' });
    expect(copy.textContent).toMatch(/Confirmed by the store Nov 28, 2026, \d+:30 [AP]M\. Pictures copied/);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('warns when the copy lags', async () => {
    home({ configured: true, state: 'lagging', failure: null, confirmed_at: null, media_at: null, lagging: true });
    await screen.findByText('Not confirmed by the store yet.');
    expect((await screen.findByRole('status')).textContent).toMatch(/^Not confirmed for too long/);
  });

  it('says not yet while the store has not confirmed the first copy, with no warning', async () => {
    home({ configured: true, state: 'pending', failure: null, confirmed_at: null, media_at: null, lagging: false });
    await screen.findByText('Not confirmed by the store yet.');
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says why the store refuses the copy, in the reader's language", async () => {
    home({ configured: true, state: 'failing', failure: 'denied', confirmed_at: null, media_at: null, lagging: true });
    expect((await screen.findByRole('alert')).textContent).toMatch(/^The store refuses access: its keys are wrong/);
    expect(screen.queryByRole('status')).toBeNull();
    await act(() => setupI18n().changeLanguage('fr'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Le stockage refuse l'accès/);
    await act(() => setupI18n().changeLanguage('en'));
  });

  it('says nothing of it to an admin (the overview carries it for super admins only)', async () => {
    home(undefined);
    await screen.findByText('Recent activity');
    expect(screen.queryByText(/copy/)).toBeNull();
  });
});
