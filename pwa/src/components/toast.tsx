// One toast at a time, top right: 10 s for success, 5 s for errors (docs/product.md,
// Statuses and Constants), or until dismissed.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, AlertIcon, CloseIcon } from './icons';

export const TOAST_MS = { success: 10_000, error: 5_000 } as const;
type Kind = keyof typeof TOAST_MS;
interface Toast {
  id: number;
  kind: Kind;
  message: string;
}

const ToastContext = createContext<((kind: Kind, message: string) => void) | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const show = useCallback((kind: Kind, message: string) => setToast({ id: Date.now(), kind, message }), []);
  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(null), TOAST_MS[toast.kind]);
    return () => window.clearTimeout(timer);
  }, [toast]);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toast-region" aria-live="polite">
        {toast && <ToastView key={toast.id} toast={toast} onClose={() => setToast(null)} />}
      </div>
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
