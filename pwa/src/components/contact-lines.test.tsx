import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const settings = {
  contact: {
    address: { en: 'Avenue Lumumba, Bukavu', fr: '', sw: '' },
    hours: { en: 'Mon–Fri', fr: '', sw: '' },
    phone: '+243970000000',
    email: 'hello@mavuno.example',
  },
  shipping_policy: { en: '', fr: '', sw: '' },
  payments: {},
};

/** The lines on a phone that never read the settings, the read answered by `answer`. */
async function firstRead() {
  localStorage.removeItem('settings');
  vi.resetModules();
  const { setupI18n } = await import('../lib/i18n');
  await setupI18n().changeLanguage('en');
  let answer!: (response: Response) => void;
  vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
  const { ContactLines } = await import('./contact-lines');
  const { container } = render(<ContactLines />);
  await waitFor(() => expect(answer).toBeDefined());
  return { container, answer };
}

afterEach(() => vi.restoreAllMocks());

describe('the footer’s contact lines', () => {
  it('keep their place and say they are busy until the first read, then show every line', async () => {
    const { container, answer } = await firstRead();
    expect(container.querySelectorAll('p')).toHaveLength(2);
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    answer(Response.json({ data: settings }));
    await waitFor(() => expect(container.querySelector('[aria-busy]')).toBeNull());
    expect(container.querySelectorAll('p')).toHaveLength(4);
    expect(container.textContent).toContain('Avenue Lumumba, Bukavu');
  });

  it('stop saying so when the read fails, so nothing waits for them', async () => {
    const { container, answer } = await firstRead();
    answer(Response.json({ error: { code: 'unavailable' } }, { status: 503 }));
    await waitFor(() => expect(container.querySelector('[aria-busy]')).toBeNull());
    expect(container.querySelectorAll('p')).toHaveLength(2);
  });
});
