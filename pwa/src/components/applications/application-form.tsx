// The application form shared by the customer, the field agent and the admin: drafts save as the person types.
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, useFocusFirstInvalid, useIntoView } from '../form';
import type { LocalDb, OutboxEntry } from '../../lib/sync/local-db';
import {
  FIELDS,
  toAnswers,
  validateSubmission,
  type Answers,
  type SurveyField,
} from '../../lib/entities/application-fields';
import {
  saveApplication,
  type Applicant,
  type Application,
  type ApplicationStatus,
} from '../../lib/entities/applications';
import { Field } from './application-field';
import './applications.css';

/** Draft answers are saved this long after the person stops typing. */
export const AUTOSAVE_MS = 800;
export function initialValues(existing: Partial<Record<SurveyField, unknown>> | undefined): Answers {
  const values: Answers = {};
  for (const field of FIELDS) {
    const value = existing?.[field.name];
    if (field.kind === 'checkbox') values[field.name] = value === true;
    else if (field.kind === 'percent') values[field.name] = typeof value === 'number' ? String(value) : '0';
    else values[field.name] = typeof value === 'string' ? value : '';
  }
  return values;
}

export function ApplicationForm(props: {
  db: LocalDb;
  uid: string;
  existing: Application | undefined;
  refused: OutboxEntry | undefined;
  /** The person a field agent fills it for (`registered`: just registered on this phone). */
  person?: { applicant: Applicant; name: string; registered?: boolean };
  onDone(): void;
}) {
  const { t } = useTranslation();
  const { db, uid, existing, refused } = props;
  // Whom it is for does not change while the form is open (kept, so autosave does not rerun).
  const [applicant] = useState(props.person?.applicant);
  const [values, setValues] = useState<Answers>(() => initialValues(existing));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState(0);
  // Opened from a list (or right after an agent registered the person): shown from its top.
  const formRef = useIntoView<HTMLFormElement>();
  useFocusFirstInvalid(formRef, attempt);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const dirty = useRef(false);
  const status = existing?.status;
  const isDraft = status === undefined || status === 'draft';

  // Drafts save themselves as the person types.
  useEffect(() => {
    if (!dirty.current || !isDraft) return;
    const timer = window.setTimeout(() => {
      void saveApplication(db, uid, toAnswers(values), 'draft', applicant).then(() => setSavedAt(Date.now()));
    }, AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
  }, [values, isDraft, db, uid, applicant]);

  const set = (name: string) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const target = event.target;
    const value = target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
    dirty.current = true;
    setValues((current) => ({ ...current, [name]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSubmission(values);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setAttempt((n) => n + 1);
      return;
    }
    const next: ApplicationStatus = status === 'rejected' ? 're-submitted' : 'pending';
    await saveApplication(db, uid, toAnswers(values), next, applicant);
    props.onDone();
  };

  const saveOnly = async () => {
    await saveApplication(db, uid, toAnswers(values), isDraft ? 'draft' : undefined, applicant);
    props.onDone();
  };

  const refusedMessages = refused
    ? Object.values(refused.result?.error_codes ?? {})
        .flat()
        .map((code) => t(`errors.${code}`, { defaultValue: code }))
    : [];
  const summary = Object.keys(problems).length > 0 ? [t('survey.check_form')] : [];

  return (
    <form
      ref={formRef}
      tabIndex={-1}
      className="card form survey-form"
      onSubmit={submit}
      noValidate
      aria-labelledby="survey-form-title"
    >
      <h2 id="survey-form-title">
        {status === 'rejected' ? t('survey.resubmit_title') : existing ? t('survey.edit_title') : t('survey.new_title')}
      </h2>
      {props.person?.registered && (
        <p className="sync-note" role="status">
          {t('agent.registered_note', { name: props.person.name })}
        </p>
      )}
      {props.person && <p className="applicant">{t('agent.form_for', { name: props.person.name })}</p>}
      {refused && (
        <ErrorBox
          messages={[
            `${t('survey.refused')}: ${t(`errors.${refused.result?.code ?? 'internal_error'}`, { defaultValue: refused.result?.message ?? '' })}`,
            ...refusedMessages,
          ]}
        />
      )}
      <ErrorBox messages={summary} />
      {FIELDS.map((field) => {
        if (field.dependsOn && values[field.dependsOn] !== true) return null;
        return (
          <Field
            key={field.name}
            field={field}
            value={values[field.name] ?? ''}
            problem={problems[field.name]}
            onChange={set(field.name)}
          />
        );
      })}
      {isDraft && savedAt && (
        <p className="muted" role="status">
          {t('survey.autosaved')}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button">
          {status === 'rejected' ? t('survey.resubmit') : t('survey.submit')}
        </button>
        <button type="button" className="button secondary" onClick={() => void saveOnly()}>
          {isDraft ? t('survey.save_draft') : t('profile.save')}
        </button>
        <button type="button" className="button secondary" onClick={props.onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
