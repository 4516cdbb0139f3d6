import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CodeStalled } from '../lib/code-wait';
import { setupI18n } from '../lib/i18n';
import { ErrorBoundary } from './error-boundary';

beforeAll(async () => {
  await setupI18n().changeLanguage('en');
});

afterEach(() => {
  vi.restoreAllMocks();
});

function Throws({ error }: { error: Error | null }) {
  if (error) throw error;
  return <p>the page</p>;
}

describe('a part that fails', () => {
  it('says a page whose code never came needs the network once, and another failure as a failure', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const missing = new TypeError('Failed to fetch dynamically imported module: http://x/assets/about-page-1.js');
    const { unmount } = render(
      <ErrorBoundary>
        <Throws error={missing} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('This page is not on this phone yet');
    unmount();
    render(
      <ErrorBoundary>
        <Throws error={new Error('storage closed')} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('This part of the app could not be opened');
  });

  it.each([
    ['the service worker gave it up', new TypeError('Failed to fetch dynamically imported module: http://x/a-1.js')],
    ['the page gave it up', new CodeStalled()],
  ])('says code that did not come while online (%s), and loads the app anew to try again', (_, error) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    render(
      <ErrorBoundary>
        <Throws error={error} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading')).toHaveTextContent('The page did not come');
    expect(screen.getByRole('alert')).toHaveTextContent('Nothing you saved is lost');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(reload).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });

  it('says code that did not come as the phone is now, not as it was at the failure', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    render(
      <ErrorBoundary>
        <Throws error={new TypeError('Failed to fetch dynamically imported module: http://x/a-1.js')} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading')).toHaveTextContent('The page did not come');
    onLine.mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(screen.getByRole('heading')).toHaveTextContent('Not on this phone yet');
  });

  it('shows its part again at another address', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rerender } = render(
      <ErrorBoundary resetKey="/about">
        <Throws error={new Error('broken')} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
    rerender(
      <ErrorBoundary resetKey="/news">
        <Throws error={null} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('the page')).toBeInTheDocument();
  });
});
