import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useNavigate } from 'react-router';
import { setupI18n } from '../lib/i18n';
import { ToastProvider, useToast } from './toast';

function Trigger({ kind }: { kind: 'success' | 'error' }) {
  const toast = useToast();
  const navigate = useNavigate();
  return (
    <>
      <button onClick={() => toast(kind, `${kind} message`)}>show</button>
      <button onClick={() => navigate('/checkout')}>go</button>
      <button
        onClick={() => {
          toast(kind, 'placed');
          navigate('/orders');
        }}
      >
        show and go
      </button>
    </>
  );
}

function show(kind: 'success' | 'error', button = 'show') {
  render(
    <MemoryRouter initialEntries={['/marketplace']}>
      <ToastProvider>
        <Trigger kind={kind} />
      </ToastProvider>
    </MemoryRouter>,
  );
  fireEvent.click(screen.getByText(button));
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

  it('goes when the person moves to another page, and stays when it came with the move', () => {
    show('success');
    act(() => vi.advanceTimersByTime(2_000));
    fireEvent.click(screen.getByText('go'));
    expect(screen.queryByText('success message')).toBeNull();
    fireEvent.click(screen.getByText('show and go'));
    expect(screen.getByRole('status')).toHaveTextContent('placed');
  });
});
