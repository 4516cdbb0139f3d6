// The customer's farmer applications (SPEC section 2, "Customer
// Applications"). Everything reads and writes the local database, so it
// works with no signal; the sync engine carries changes to the server.
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/dialog';
import { ErrorBox } from '../../components/form';
import { AlertIcon, ClipboardIcon, ClockIcon, EditIcon, TrashIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatDate } from '../../lib/format';
import type { LocalDb, OutboxEntry } from '../../lib/local-db';
import { newUid } from '../../lib/sync-engine';
import {
  FIELDS,
  answerText,
  applies,
  optionLabel,
  toAnswers,
  validateSubmission,
  type Answers,
  type FieldDef,
} from './fields';
import {
  deleteApplication,
  saveApplication,
  useApplications,
  useOutbox,
  type Application,
  type ApplicationStatus,
} from './local';
import { personName, useSavedPeople } from '../agent/people';

type View = { mode: 'list' } | { mode: 'form'; uid: string; isNew: boolean } | { mode: 'details'; uid: string };

/** Draft answers are saved this long after the person stops typing. */
export const AUTOSAVE_MS = 800;

const BADGE: Record<ApplicationStatus, string> = {
  approved: 'badge green',
  pending: 'badge yellow',
  rejected: 'badge red',
  're-submitted': 'badge blue',
  draft: 'badge grey',
};

export function StatusBadge({ status }: { status: ApplicationStatus }) {
  const { t } = useTranslation();
  return <span className={BADGE[status]}>{t(`survey.status.${status}`)}</span>;
}

/** A field agent's view: applications they filled for others; new ones start from a person. */
export interface AgentMode {
  onNew(): void;
}

export function ApplicationsSection({ db, agent }: { db: LocalDb; agent?: AgentMode }) {
  const { t } = useTranslation();
  const applications = useApplications(db);
  const saved = useSavedPeople(db);
  const outbox = useOutbox(db);
  const [view, setView] = useState<View>({ mode: 'list' });
  const [deleting, setDeleting] = useState<string | null>(null);

  if (!applications) return <Spinner label={t('common.loading')} />;
  const current = view.mode === 'list' ? undefined : applications.find((a) => a.uid === view.uid);
  const entriesFor = (uid: string) => outbox.filter((e) => e.uid === uid);
  const applicantOf = (a: Application): string | undefined => {
    if (!agent) return undefined;
    if (a.user) return personName(a.user);
    const person = saved?.people.find((p) => p.id === a.user_id);
    return person ? personName(person) : undefined;
  };
  const startNew = agent ? agent.onNew : () => setView({ mode: 'form', uid: newUid(), isNew: true });

  if (view.mode === 'form') {
    return (
      <ApplicationForm
        db={db}
        uid={view.uid}
        existing={current}
        refused={entriesFor(view.uid).find((e) => e.state === 'rejected')}
        person={
          agent && current?.user_id !== undefined
            ? { id: current.user_id, name: applicantOf(current) ?? '' }
            : undefined
        }
        onDone={() => setView({ mode: 'list' })}
      />
    );
  }
  if (view.mode === 'details' && current) {
    return <ApplicationDetails application={current} onBack={() => setView({ mode: 'list' })} />;
  }

  return (
    <div className="applications">
      <div className="section-head">
        <h2>{t(agent ? 'agent.your_applications' : 'survey.your_applications')}</h2>
        <button type="button" className="button" onClick={startNew}>
          <ClipboardIcon /> {t('survey.new')}
        </button>
      </div>
      {applications.length === 0 ? (
        <section className="card coming-soon">
          <ClipboardIcon />
          <h3>{t('survey.empty_title')}</h3>
          <p>{t(agent ? 'agent.empty_applications' : 'survey.empty_body')}</p>
          <button type="button" className="button" onClick={startNew}>
            {t('survey.create_first')}
          </button>
        </section>
      ) : (
        <ul className="application-list">
          {applications.map((application, index) => (
            <ApplicationCard
              key={application.uid}
              application={application}
              number={applications.length - index}
              applicant={applicantOf(application)}
              entries={entriesFor(application.uid)}
              onView={() => setView({ mode: 'details', uid: application.uid })}
              onEdit={() => setView({ mode: 'form', uid: application.uid, isNew: false })}
              onDelete={() => setDeleting(application.uid)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('survey.delete_title')}
        confirmLabel={t('profile.delete_confirm')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          if (deleting) void deleteApplication(db, deleting);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>{t('survey.delete_warning')}</p>
      </ConfirmDialog>
    </div>
  );
}

function ApplicationCard(props: {
  application: Application;
  number: number;
  /** Whose application, when an agent filled it. */
  applicant?: string;
  entries: OutboxEntry[];
  onView(): void;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const { application: a, entries } = props;
  const waiting = entries.some((e) => e.state === 'queued');
  const refused = entries.find((e) => e.state === 'rejected');
  const changeable = a.status === 'draft' || a.status === 'rejected';
  const answer = (field: string) =>
    typeof a[field] === 'string' ? optionLabel(t, field, a[field] as string) : t('profile.not_provided');
  return (
    <li className="card application-card">
      <div className="application-head">
        <h3>{t('survey.number', { number: props.number })}</h3>
        <StatusBadge status={a.status} />
      </div>
      {props.applicant && <p className="applicant">{t('agent.for_person', { name: props.applicant })}</p>}
      {waiting && (
        <p className="sync-note wait">
          <ClockIcon /> {t('survey.waiting')}
        </p>
      )}
      {refused && (
        <p className="sync-note bad" role="alert">
          <AlertIcon /> {t('survey.refused')}:{' '}
          {t(`errors.${refused.result?.code ?? 'internal_error'}`, { defaultValue: refused.result?.message ?? '' })}
        </p>
      )}
      <dl className="details compact">
        <div>
          <dt>{t('survey.fields.land_size')}</dt>
          <dd>{answer('land_size')}</dd>
        </div>
        <div>
          <dt>{t('survey.fields.work_type')}</dt>
          <dd>{answer('work_type')}</dd>
        </div>
        <div>
          <dt>{t('survey.fields.cooperative_name')}</dt>
          <dd>{(a.cooperative_name as string) || t('profile.not_provided')}</dd>
        </div>
        <div>
          <dt>{t('survey.fields.average_yield')}</dt>
          <dd>{answer('average_yield')}</dd>
        </div>
        {a.created_at && (
          <div>
            <dt>{t('survey.created')}</dt>
            <dd>{formatDate(a.created_at)}</dd>
          </div>
        )}
      </dl>
      {a.admin_comment && (
        <p className="admin-comment">
          <strong>{t('survey.admin_comment')}:</strong> {a.admin_comment}
        </p>
      )}
      <div className="actions">
        <button type="button" className="button secondary small" onClick={props.onView}>
          {t('survey.view')}
        </button>
        {changeable && (
          <button type="button" className="button secondary small" onClick={props.onEdit}>
            <EditIcon />{' '}
            {refused ? t('survey.fix') : a.status === 'rejected' ? t('survey.resubmit') : t('profile.edit')}
          </button>
        )}
        {changeable && (
          <button type="button" className="button danger-outline small" onClick={props.onDelete}>
            <TrashIcon /> {t('survey.delete')}
          </button>
        )}
      </div>
    </li>
  );
}

export function initialValues(existing: Record<string, unknown> | undefined): Answers {
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
  /** The person a field agent fills it for. */
  person?: { id: number; name: string };
  onDone(): void;
}) {
  const { t } = useTranslation();
  const { db, uid, existing, refused } = props;
  const forUserId = props.person?.id;
  const [values, setValues] = useState<Answers>(() => initialValues(existing));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const dirty = useRef(false);
  const status = existing?.status;
  const isDraft = status === undefined || status === 'draft';

  // Drafts save themselves as the person types.
  useEffect(() => {
    if (!dirty.current || !isDraft) return;
    const timer = window.setTimeout(() => {
      void saveApplication(db, uid, toAnswers(values), 'draft', forUserId).then(() => setSavedAt(Date.now()));
    }, AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
  }, [values, isDraft, db, uid, forUserId]);

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
    if (Object.keys(found).length > 0) return;
    const next: ApplicationStatus = status === 'rejected' ? 're-submitted' : 'pending';
    await saveApplication(db, uid, toAnswers(values), next, forUserId);
    props.onDone();
  };

  const saveOnly = async () => {
    await saveApplication(db, uid, toAnswers(values), isDraft ? 'draft' : undefined, forUserId);
    props.onDone();
  };

  const refusedMessages = refused
    ? Object.values(refused.result?.error_codes ?? {})
        .flat()
        .map((code) => t(`errors.${code}`, { defaultValue: code }))
    : [];
  const summary = Object.keys(problems).length > 0 ? [t('survey.check_form')] : [];

  return (
    <form className="card form survey-form" onSubmit={submit} noValidate aria-labelledby="survey-form-title">
      <h2 id="survey-form-title">
        {status === 'rejected' ? t('survey.resubmit_title') : existing ? t('survey.edit_title') : t('survey.new_title')}
      </h2>
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
      {t(`errors.${problem}`)}
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

function ApplicationDetails({ application, onBack }: { application: Application; onBack(): void }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="survey-details-title">
      <div className="application-head">
        <h2 id="survey-details-title">{t('survey.details_title')}</h2>
        <StatusBadge status={application.status} />
      </div>
      {application.admin_comment && (
        <p className="admin-comment">
          <strong>{t('survey.admin_comment')}:</strong> {application.admin_comment}
        </p>
      )}
      <dl className="details">
        {FIELDS.filter((f) => applies(f, application)).map((field) => (
          <div key={field.name}>
            <dt>{t(`survey.fields.${field.name}`)}</dt>
            <dd>{answerText(t, field, application[field.name])}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="button secondary" onClick={onBack}>
        {t('survey.back_to_list')}
      </button>
    </section>
  );
}
