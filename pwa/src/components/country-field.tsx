// The country of a form: the six countries the platform serves, in the reader's
// language, after a first empty choice when `blank` names it.
import { useTranslation } from 'react-i18next';
import type { ChangeEventHandler } from 'react';
import { SelectField } from './form';
import { COUNTRIES } from '../lib/account';

export function CountryField(props: {
  value: string;
  onChange: ChangeEventHandler<HTMLSelectElement>;
  /** The first, empty choice ("Choose your country", "All countries"). */
  blank?: string;
  required?: boolean;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={t('fields.country')}
      required={props.required}
      value={props.value}
      error={props.error}
      onChange={props.onChange}
    >
      {props.blank !== undefined && <option value="">{props.blank}</option>}
      {COUNTRIES.map((code) => (
        <option key={code} value={code}>
          {t(`countries.${code}`)}
        </option>
      ))}
    </SelectField>
  );
}
