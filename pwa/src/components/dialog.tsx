// A modal confirmation on the native <dialog> element: focus is trapped and
// Escape cancels, without a library.
import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal?.();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <div className="dialog-body">{props.children}</div>
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={props.onCancel} disabled={props.busy}>
          {props.cancelLabel}
        </button>
        <button
          type="button"
          className={`button ${props.danger ? 'danger' : ''}`}
          onClick={props.onConfirm}
          disabled={props.busy}
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

interface ModalProps {
  title: string;
  children: ReactNode;
  closeLabel: string;
  onClose(): void;
  /** Buttons at the bottom, beside Close. */
  actions?: ReactNode;
}

/** A modal panel for details and forms; it scrolls inside on a small phone. */
export function Modal({ title, children, closeLabel, onClose, actions }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
    // Start reading at the top, not at the first button (which may be far below).
    dialog?.querySelector('h2')?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog wide"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} tabIndex={-1}>
        {title}
      </h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          {closeLabel}
        </button>
        {actions}
      </div>
    </dialog>
  );
}
