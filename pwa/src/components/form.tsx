// Labelled form controls with large touch targets, and the red error box.
import { useId, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
}

export function TextField({ label, hint, ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {input.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <input id={id} aria-describedby={hintId} {...input} />
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  children: ReactNode;
}

export function SelectField({ label, children, ...select }: SelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {select.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <select id={id} {...select}>
        {children}
      </select>
    </div>
  );
}

export function ErrorBox({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="error-box" role="alert">
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
