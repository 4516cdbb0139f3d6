// A person's name, phone number and country: what sign-up asks of the person signing
// up, and what a field agent asks of a person they register from the phone.
import type { ChangeEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryField } from './country-field';
import { TextField } from './form';
import type { PersonValues } from '../lib/validation';

type Change = (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;

export function PersonFields({
  values,
  invalid,
  set,
  own = false,
  afterName,
}: {
  values: PersonValues;
  /** Each field's translated problem, if any. */
  invalid: Partial<Record<string, string>>;
  set(field: keyof PersonValues): Change;
  /** The person's own details (sign-up): the browser may offer what it knows of them. */
  own?: boolean;
  /** Asked between the name and the phone number (sign-up's optional email). */
  afterName?: ReactNode;
}) {
  const { t } = useTranslation();
  const fill = (hint: string) => (own ? hint : 'off');
  return (
    <>
      <div className="field-row">
        <TextField
          label={t('fields.first_name')}
          autoComplete={fill('given-name')}
          required
          value={values.first_name}
          error={invalid.first_name}
          onChange={set('first_name')}
        />
        <TextField
          label={t('fields.last_name')}
          autoComplete={fill('family-name')}
          required
          value={values.last_name}
          error={invalid.last_name}
          onChange={set('last_name')}
        />
      </div>
      {afterName}
      <TextField
        label={t('fields.phone_number')}
        type="tel"
        inputMode="tel"
        autoComplete={fill('tel')}
        required
        value={values.phone_number}
        error={invalid.phone_number}
        onChange={set('phone_number')}
      />
      <CountryField
        required
        blank={t('fields.choose_country')}
        value={values.country}
        error={invalid.country}
        onChange={set('country')}
      />
    </>
  );
}
