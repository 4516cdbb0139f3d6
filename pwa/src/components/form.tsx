// Labelled form controls with large touch targets, each with its own error line,
// the red error box, and focus on the first invalid field after a refused send.
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type RefObject,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import type { Problem } from '../lib/error-text';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  /** What is wrong with the value, in words: marks the field and is read with it. */
  error?: string;
}

/** `aria-describedby` for a field's hint and error, and the error's line. */
function describe(id: string, hint?: string, error?: string) {
  const ids = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return {
    describedBy: ids || undefined,
    invalid: error ? true : undefined,
    line: error && (
      <p className="field-error" id={`${id}-error`}>
        {error}
      </p>
    ),
  };
}

export function TextField({ label, hint, error, ...input }: FieldProps) {
  const id = useId();
  const { describedBy, invalid, line } = describe(id, hint, error);
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>
        {label}
        {input.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <input id={id} aria-describedby={describedBy} aria-invalid={invalid} {...input} />
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {line}
    </div>
  );
}

interface AreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
}

export function TextAreaField({ label, error, ...area }: AreaProps) {
  const id = useId();
  const { describedBy, invalid, line } = describe(id, undefined, error);
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-describedby={describedBy} aria-invalid={invalid} {...area} />
      {line}
    </div>
  );
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  children: ReactNode;
  error?: string;
}

export function SelectField({ label, children, error, ...select }: SelectProps) {
  const id = useId();
  const { describedBy, invalid, line } = describe(id, undefined, error);
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>
        {label}
        {select.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <select id={id} aria-describedby={describedBy} aria-invalid={invalid} {...select}>
        {children}
      </select>
      {line}
    </div>
  );
}

export function ErrorBox({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="error-box" role="alert" tabIndex={-1}>
      {messages.length === 1 ? (
        <p>{messages[0]}</p>
      ) : (
        <ul>
          {messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface ImagePickerProps {
  label: string;
  buttonLabel: string;
  fileName: string | null;
  /** Several pictures at once (a product's photos). */
  multiple?: boolean;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
}

/** A file input whose button and file name are in the person's language
 * (the browser's own control speaks the browser's language). */
export function ImagePicker({ label, buttonLabel, fileName, multiple, onChange }: ImagePickerProps) {
  const id = useId();
  return (
    <div className="image-picker">
      <span className="picker-label" id={`${id}-label`}>
        {label}
      </span>
      <input
        id={id}
        className="visually-hidden file-input"
        type="file"
        accept="image/*"
        multiple={multiple}
        onChange={onChange}
        aria-labelledby={`${id}-label`}
      />
      <label htmlFor={id} className="button secondary small">
        {buttonLabel}
      </label>
      {fileName && <span className="file-name">{fileName}</span>}
    </div>
  );
}

/**
 * After a refused send (`attempt` counts them), moves focus and the view to the form's
 * first invalid field, or else to its error box, so a phone shows what to fix.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, attempt: number) {
  useEffect(() => {
    if (attempt === 0) return;
    const root = form.current;
    const target =
      root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? root?.querySelector<HTMLElement>('.error-box');
    if (!target) return;
    // The summary of what to fix and the first field, together when the screen holds both
    // (checkout's City is a screen below its summary); else the field.
    const summary = root?.querySelector<HTMLElement>('.error-box');
    const header = document.querySelector('header')?.getBoundingClientRect().height ?? 0;
    const top = summary && summary !== target ? summary.getBoundingClientRect().top : null;
    if (top !== null && target.getBoundingClientRect().bottom - top <= window.innerHeight - header - 16) {
      window.scrollBy({ top: top - header - 8 });
    } else {
      target.scrollIntoView({ block: 'center' });
    }
    target.focus({ preventScroll: true });
  }, [form, attempt]);
}

/** A form's ref, and `refused()` to call when a send is refused: focus and the view go to
 * what to fix (`useFocusFirstInvalid`). */
export function useRefusedForm(): { form: RefObject<HTMLFormElement | null>; refused: () => void } {
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstInvalid(form, attempt);
  return { form, refused: useCallback(() => setAttempt((n) => n + 1), []) };
}

/**
 * Brings what takes a form's place (a success, the next form) into view and focus when it
 * appears: on a phone the screen was still where the form's button had been. The element
 * needs `tabIndex={-1}`.
 */
export function useIntoView<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start' });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}

/**
 * A form's send: its own checks (codes) first, then `request`; a refusal of either
 * keeps what was typed, says why, and moves focus to what to fix. `setProblem` lets
 * other checks (a picked picture) report through the same box.
 */
export function useFormSend() {
  const [problem, setProblem] = useState<Problem>(null);
  const [busy, setBusy] = useState(false);
  const { form, refused } = useRefusedForm();
  const send = async (codes: string[], request: () => Promise<unknown>): Promise<boolean> => {
    if (codes.length > 0) {
      setProblem({ codes });
      refused();
      return false;
    }
    setBusy(true);
    setProblem(null);
    try {
      await request();
      return true;
    } catch (error) {
      setProblem({ error });
      refused();
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { problem, setProblem, busy, form, send };
}
