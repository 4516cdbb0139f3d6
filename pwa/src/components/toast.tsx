// One toast at a time, top right: 10 s for success, 5 s for errors (docs/product.md,
// Statuses and Constants), or until dismissed, or until the person goes to another
// page (a toast that came with the move stays). While a modal dialog is open, the
// toast shows inside it: the rest of the page is then under the dialog and inert.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckIcon, AlertIcon, CloseIcon } from './icons';

export const TOAST_MS = { success: 10_000, error: 5_000 } as const;
type Kind = keyof typeof TOAST_MS;
interface Toast {
  id: number;
  kind: Kind;
  message: string;
  /** The modal dialog open when it was shown, if any. */
  host: HTMLDialogElement | null;
  /** The page it belongs to, and when it was shown. */
  path: string;
  at: number;
}

/** A toast shown this soon before a move to another page came with it ("Order placed"). */
const CAME_WITH_MOVE_MS = 1500;

function topmostModal(): HTMLDialogElement | null {
  const open = [...document.querySelectorAll('dialog')].filter((d) => d.open && d.matches(':modal'));
  return open.at(-1) ?? null;
}

const ToastContext = createContext<((kind: Kind, message: string) => void) | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const { pathname } = useLocation();
  const show = useCallback(
    (kind: Kind, message: string) =>
      setToast({
        id: Date.now(),
        kind,
        message,
        host: topmostModal(),
        path: window.location.pathname,
        at: Date.now(),
      }),
    [],
  );
  // Another page: the toast said what happened on the last one, and would sit over this
  // one's fields ("Added to cart" over checkout's City at 360 px).
  useEffect(() => {
    setToast((current) => {
      if (!current || current.path === pathname) return current;
      return Date.now() - current.at < CAME_WITH_MOVE_MS ? { ...current, path: pathname } : null;
    });
  }, [pathname]);
  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(null), TOAST_MS[toast.kind]);
    return () => window.clearTimeout(timer);
  }, [toast]);
  // When its dialog closes (or goes away), the toast moves back to the page.
  useEffect(() => {
    const host = toast?.host;
    if (!host) return;
    const leave = () => {
      if (!host.open || !host.isConnected) setToast((t) => (t && t.host === host ? { ...t, host: null } : t));
    };
    const watch = new MutationObserver(leave);
    watch.observe(document.body, { childList: true, subtree: true });
    watch.observe(host, { attributes: true, attributeFilter: ['open'] });
    return () => watch.disconnect();
  }, [toast?.host]);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toast-region" aria-live="polite">
        {toast && !toast.host && <ToastView key={toast.id} toast={toast} onClose={() => setToast(null)} />}
      </div>
      {toast?.host &&
        createPortal(
          <div className="toast-region">
            <ToastView key={toast.id} toast={toast} onClose={() => setToast(null)} />
          </div>,
          toast.host,
        )}
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      {toast.kind === 'success' ? <CheckIcon /> : <AlertIcon />}
      <span>{toast.message}</span>
      <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.dismiss')}>
        <CloseIcon />
      </button>
    </div>
  );
}

export function useToast(): (kind: Kind, message: string) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast outside ToastProvider');
  return show;
}
