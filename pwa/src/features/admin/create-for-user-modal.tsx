// An application made by the admin for a chosen person.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { ErrorBox, SelectField } from '../../components/form';
import { useToast } from '../../components/toast';
import { errorMessages } from '../../lib/error-text';
import { FIELDS, applies, toAnswers, validateSubmission, type Answers } from '../../lib/entities/application-fields';
import { createForUser } from './api';
import { fetchSurveyable } from '../../lib/entities/people';
import type { LocalPerson } from '../../lib/sync/local-db';
import { Field } from '../../components/applications/application-field';
import { initialValues } from '../../components/applications/application-form';

export function CreateForUserModal({ onClose, onDone }: { onClose(): void; onDone(): Promise<void> }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [people, setPeople] = useState<LocalPerson[] | null>(null);
  const [peopleError, setPeopleError] = useState<unknown>(null);
  const [userId, setUserId] = useState('');
  const [values, setValues] = useState<Answers>(() => initialValues(undefined));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    fetchSurveyable().then((answer) => setPeople(answer.data), setPeopleError);
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSubmission(values);
    if (!userId) found.user_id = 'user_required';
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await createForUser(Number(userId), toAnswers(values));
      toast('success', t('admin.apps.created'));
      await onDone();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const summary = [
    ...(problems.user_id ? [t('errors.user_required')] : []),
    ...(Object.keys(problems).some((k) => k !== 'user_id') ? [t('survey.check_form')] : []),
  ];
  return (
    <Modal
      title={t('admin.apps.create_title')}
      closeLabel={t('common.cancel')}
      onClose={onClose}
      actions={
        <button type="submit" form="create-survey-form" className="button" disabled={busy}>
          {busy ? t('common.saving') : t('survey.submit')}
        </button>
      }
    >
      <form id="create-survey-form" className="form" onSubmit={submit} noValidate>
        {peopleError !== null && <ErrorBox messages={[t('admin.apps.users_failed')]} />}
        {error !== null && <ErrorBox messages={errorMessages(error, t, 'admin.apps.create_failed')} />}
        <ErrorBox messages={summary} />
        <SelectField
          label={t('admin.columns.applicant')}
          required
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          disabled={!people}
        >
          <option value="">{t('admin.apps.choose_user')}</option>
          {people?.map((p) => (
            <option key={p.id} value={p.id}>
              {`${p.first_name} ${p.last_name}`.trim()} — {p.email ?? p.phone_number}
            </option>
          ))}
        </SelectField>
        {FIELDS.map((field) =>
          applies(field, values) ? (
            <Field
              key={field.name}
              field={field}
              value={values[field.name] ?? ''}
              problem={problems[field.name]}
              onChange={(e) => {
                const target = e.target;
                const value =
                  target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
                setValues((current) => ({ ...current, [field.name]: value }));
              }}
            />
          ) : null,
        )}
      </form>
    </Modal>
  );
}
