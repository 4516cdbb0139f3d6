import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../lib/i18n';
import { ToastProvider, useToast } from './toast';

function Trigger({ kind }: { kind: 'success' | 'error' }) {
  const toast = useToast();
  return <button onClick={() => toast(kind, `${kind} message`)}>show</button>;
}

function show(kind: 'success' | 'error') {
  render(
    <ToastProvider>
      <Trigger kind={kind} />
    </ToastProvider>,
  );
  fireEvent.click(screen.getByText('show'));
}

beforeAll(async () => {
  await setupI18n().changeLanguage('en');
});
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toasts (docs/product.md, Statuses and Constants)', () => {
  it('a success stays 10 seconds', () => {
    show('success');
    act(() => vi.advanceTimersByTime(9_900));
    expect(screen.getByRole('status')).toHaveTextContent('success message');
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('success message')).toBeNull();
  });

  it('an error stays 5 seconds and is announced at once', () => {
    show('error');
    expect(screen.getByRole('alert')).toHaveTextContent('error message');
    act(() => vi.advanceTimersByTime(5_100));
    expect(screen.queryByText('error message')).toBeNull();
  });

  it('can be dismissed', () => {
    show('success');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('success message')).toBeNull();
  });
});
