// A field agent registers a person who has no account (and often no email) from
// the phone, with or without a signal; their application can be filled at once.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField, useFormSend } from '../../components/form';
import { PersonFields } from '../../components/person-fields';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import type { LocalDb } from '../../lib/sync/local-db';
import { registerPerson } from '../../lib/entities/people';
import { useSession } from '../../lib/session';
import { checkPerson, type PersonValues } from '../../lib/validation';

const FIELDS = ['first_name', 'last_name', 'phone_number', 'country', 'location'] as const;
type Values = PersonValues & { location: string };

export function RegisterPerson({
  db,
  onRegistered,
  onCancel,
}: {
  db: LocalDb;
  onRegistered(person: { uid: string; name: string }): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [values, setValues] = useState<Values>({
    first_name: '',
    last_name: '',
    phone_number: '',
    country: user?.country ?? '',
    location: '',
  });
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, FIELDS);
  const set = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const person = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      phone_number: values.phone_number.trim(),
      country: values.country,
      ...(values.location.trim() ? { location: values.location.trim() } : {}),
    };
    let uid = '';
    if (await send(checkPerson(values), async () => (uid = await registerPerson(db, person)))) {
      onRegistered({ uid, name: `${person.first_name} ${person.last_name}` });
    }
  };

  return (
    <form ref={form} className="card form" onSubmit={submit} noValidate aria-labelledby="register-person">
      <h2 id="register-person">{t('agent.register_title')}</h2>
      <p className="muted">{t('agent.register_intro')}</p>
      <ErrorBox messages={problemMessages(problem, t, 'agent.register_failed')} />
      <PersonFields values={values} invalid={invalid} set={set} />
      <TextField label={t('agent.village')} value={values.location} onChange={set('location')} />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {t('agent.register_save')}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
