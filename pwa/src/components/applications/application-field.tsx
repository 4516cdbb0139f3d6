// One question of the application form, asked by its kind.
import { type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../lib/error-text';
import { optionLabel, type FieldDef } from '../../lib/entities/application-fields';

export function Field({
  field,
  value,
  problem,
  onChange,
}: {
  field: FieldDef;
  value: string | number | boolean;
  problem: string | undefined;
  onChange(event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>): void;
}) {
  const { t } = useTranslation();
  const id = `survey-${field.name}`;
  const label = t(`survey.fields.${field.name}`);
  const errorId = problem ? `${id}-error` : undefined;
  const error = problem && (
    <p className="field-error" id={errorId}>
      {t(errorKey(problem))}
    </p>
  );
  if (field.kind === 'checkbox') {
    return (
      <label className="checkbox">
        <input type="checkbox" checked={value === true} onChange={onChange} />
        <span>{label}</span>
      </label>
    );
  }
  const common = { id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': errorId, onChange };
  return (
    <div className={`field${problem ? ' has-error' : ''}`}>
      <label htmlFor={id}>
        {label}
        {field.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {field.kind === 'select' && (
        <select {...common} value={String(value)}>
          <option value="">{t('survey.choose')}</option>
          {field.options?.map((option) => (
            <option key={option} value={option}>
              {optionLabel(t, field.name, option)}
            </option>
          ))}
        </select>
      )}
      {field.kind === 'text' && <input {...common} type="text" value={String(value)} />}
      {field.kind === 'textarea' && <textarea {...common} rows={3} value={String(value)} />}
      {field.kind === 'percent' && (
        <input {...common} type="number" inputMode="numeric" min={0} max={100} step={1} value={String(value)} />
      )}
      {error}
    </div>
  );
}
