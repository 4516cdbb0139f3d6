// The admin's Applications screen (SPEC section 2, "Admin Applications"):
// stat cards, filters, a page of the table, details, decisions one at a time
// or in bulk, CSV export, and an application made for a chosen person.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { ClipboardIcon, DownloadIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { download } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { Field, StatusBadge, initialValues } from '../applications/applications-section';
import {
  FIELDS,
  FIELD_GROUPS,
  answerText,
  applies,
  toAnswers,
  validateSubmission,
  type Answers,
} from '../applications/fields';
import {
  applicationQuery,
  createForUser,
  decide,
  decideMany,
  fetchApplications,
  fetchSurveyable,
  type AdminApplication,
  type ApplicationFilters,
  type ApplicationPage,
  type Decision,
  type PersonCard,
  type PersonName,
} from './api';
import { useDebounced } from './use-debounced';

const STATUSES = ['pending', 'approved', 'rejected', 're-submitted'] as const;
const PERIODS = ['all', 'today', 'week', 'month'] as const;

const fullName = (p: PersonName) => `${p.first_name} ${p.last_name}`.trim() || p.email;
const reviewable = (a: AdminApplication) => a.status === 'pending' || a.status === 're-submitted';

type Dialog =
  { kind: 'details'; application: AdminApplication } | { kind: 'decide'; ids: number[] } | { kind: 'create' } | null;

export function AdminApplications() {
  const { t } = useTranslation();
  const toast = useToast();
  const [filters, setFilters] = useState<ApplicationFilters>({ q: '', status: '', period: 'all' });
  const query = useDebounced(filters.q);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<ApplicationPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [exporting, setExporting] = useState(false);

  const { status, period } = filters;
  // The search box reaches the server through `query`, once typing pauses.
  const load = useCallback(async () => {
    setLoading(true);
    try {
      setResult(await fetchApplications({ q: query, status, period }, page));
      setError(null);
    } catch (caught) {
      setError(caught);
    } finally {
      setLoading(false);
    }
  }, [query, status, period, page]);

  useEffect(() => {
    void load();
  }, [load]);

  const setFilter = <K extends keyof ApplicationFilters>(key: K, value: ApplicationFilters[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
    setSelected(new Set());
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      await download(
        `/admin/surveys/export?${applicationQuery({ q: query, status, period }, { lang: currentLanguage() })}`,
      );
    } catch (caught) {
      toast('error', errorMessages(caught, t, 'admin.export_failed')[0]!);
    } finally {
      setExporting(false);
    }
  };

  const afterChange = async () => {
    setDialog(null);
    setSelected(new Set());
    await load();
  };

  if (error && !result) {
    return (
      <section className="card coming-soon" role="alert">
        <h2>{t('admin.apps.load_failed')}</h2>
        <p>{errorMessages(error, t, 'admin.apps.load_failed')[0]}</p>
        <button type="button" className="button" onClick={() => void load()}>
          {t('common.try_again')}
        </button>
      </section>
    );
  }
  if (!result) return <Spinner label={t('common.loading')} />;

  const rows = result.data;
  const pages = Math.max(1, Math.ceil(result.total / result.per_page));
  const decidable = rows.filter(reviewable);
  const allSelected = decidable.length > 0 && decidable.every((a) => selected.has(a.id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="admin-screen">
      <div className="stat-cards">
        <StatCard
          label={t('admin.apps.total')}
          value={result.stats.total}
          active={filters.status === ''}
          onClick={() => setFilter('status', '')}
        />
        {STATUSES.map((status) => (
          <StatCard
            key={status}
            label={t(`survey.status.${status}`)}
            value={result.stats[status]}
            active={filters.status === status}
            onClick={() => setFilter('status', status)}
          />
        ))}
      </div>

      <div className="card filters">
        <TextField
          label={t('admin.search')}
          type="search"
          placeholder={t('admin.apps.search_placeholder')}
          value={filters.q}
          onChange={(e) => setFilter('q', e.target.value)}
        />
        <SelectField
          label={t('admin.columns.status')}
          value={filters.status}
          onChange={(e) => setFilter('status', e.target.value as ApplicationFilters['status'])}
        >
          <option value="">{t('admin.all_statuses')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`survey.status.${s}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('admin.apps.period')}
          value={filters.period}
          onChange={(e) => setFilter('period', e.target.value as ApplicationFilters['period'])}
        >
          {PERIODS.map((p) => (
            <option key={p} value={p}>
              {t(`admin.apps.periods.${p}`)}
            </option>
          ))}
        </SelectField>
        <div className="filter-actions">
          <button type="button" className="button secondary" onClick={() => void exportCsv()} disabled={exporting}>
            <DownloadIcon /> {exporting ? t('admin.exporting') : t('admin.export')}
          </button>
          <button type="button" className="button" onClick={() => setDialog({ kind: 'create' })}>
            <ClipboardIcon /> {t('admin.apps.create')}
          </button>
        </div>
      </div>

      {selected.size > 0 && (
        <div className="bulk-bar" role="region" aria-label={t('admin.apps.selected', { count: selected.size })}>
          <strong>{t('admin.apps.selected', { count: selected.size })}</strong>
          <button
            type="button"
            className="button small"
            onClick={() => setDialog({ kind: 'decide', ids: [...selected] })}
          >
            {t('admin.apps.review')}
          </button>
        </div>
      )}

      {error !== null && <ErrorBox messages={errorMessages(error, t, 'admin.apps.load_failed')} />}
      {rows.length === 0 ? (
        <p className="card empty-note">{t('admin.apps.empty')}</p>
      ) : (
        <div className="table-wrap card" aria-busy={loading}>
          <label className="checkbox select-all">
            <input
              type="checkbox"
              checked={allSelected}
              disabled={decidable.length === 0}
              onChange={() => setSelected(allSelected ? new Set() : new Set(decidable.map((a) => a.id)))}
            />
            <span>{t('admin.apps.select_all')}</span>
          </label>
          <table className="data-table stacked">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">{t('admin.columns.select')}</span>
                </th>
                <th scope="col">{t('admin.columns.applicant')}</th>
                <th scope="col">{t('admin.columns.created_by')}</th>
                <th scope="col">{t('admin.columns.submitted')}</th>
                <th scope="col">{t('admin.columns.status')}</th>
                <th scope="col">{t('admin.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${t('admin.columns.select')} #${a.id}`}
                      checked={selected.has(a.id)}
                      disabled={!reviewable(a)}
                      onChange={() => toggle(a.id)}
                    />
                  </td>
                  <td>
                    <strong>{fullName(a.user)}</strong>
                    <br />
                    <span className="muted">{a.user.email}</span>
                  </td>
                  <td data-label={t('admin.columns.created_by')}>{fullName(a.created_by)}</td>
                  <td data-label={t('admin.columns.submitted')}>{formatDate(a.created_at, 'short')}</td>
                  <td>
                    <StatusBadge status={a.status} />
                  </td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button secondary small"
                      onClick={() => setDialog({ kind: 'details', application: a })}
                    >
                      {t('admin.view')}
                    </button>
                    {reviewable(a) && (
                      <button
                        type="button"
                        className="button small"
                        onClick={() => setDialog({ kind: 'decide', ids: [a.id] })}
                      >
                        {t('admin.apps.review')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={result.page} pages={pages} total={result.total} perPage={result.per_page} onPage={setPage} />

      {dialog?.kind === 'details' && (
        <ApplicationDetailsModal
          application={dialog.application}
          onClose={() => setDialog(null)}
          onReview={() => setDialog({ kind: 'decide', ids: [dialog.application.id] })}
        />
      )}
      {dialog?.kind === 'decide' && (
        <DecisionModal ids={dialog.ids} onClose={() => setDialog(null)} onDone={afterChange} />
      )}
      {dialog?.kind === 'create' && <CreateForUserModal onClose={() => setDialog(null)} onDone={afterChange} />}
    </div>
  );
}

export function StatCard({
  label,
  value,
  active,
  onClick,
}: {
  label: string;
  value: number;
  active?: boolean;
  onClick?(): void;
}) {
  return (
    <button type="button" className="stat-card" aria-pressed={active} onClick={onClick} disabled={!onClick}>
      <span className="stat-value">{value.toLocaleString(currentLanguage())}</span>
      <span className="stat-label">{label}</span>
    </button>
  );
}

export function Pager({
  page,
  pages,
  total,
  perPage,
  onPage,
}: {
  page: number;
  pages: number;
  total: number;
  perPage: number;
  onPage(page: number): void;
}) {
  const { t } = useTranslation();
  if (total === 0) return null;
  const from = (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <nav className="pager" aria-label={t('admin.showing', { from, to, total })}>
      <span>{t('admin.showing', { from, to, total })}</span>
      <button type="button" className="button secondary small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('admin.previous')}
      </button>
      <button
        type="button"
        className="button secondary small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('admin.next')}
      </button>
    </nav>
  );
}

function ApplicationDetailsModal({
  application: a,
  onClose,
  onReview,
}: {
  application: AdminApplication;
  onClose(): void;
  onReview(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('admin.apps.details_title', { id: a.id })}
      closeLabel={t('admin.close')}
      onClose={onClose}
      actions={
        reviewable(a) ? (
          <button type="button" className="button" onClick={onReview}>
            {t('admin.apps.review')}
          </button>
        ) : undefined
      }
    >
      <p>
        <StatusBadge status={a.status} />
      </p>
      <dl className="details compact">
        <div>
          <dt>{t('admin.columns.applicant')}</dt>
          <dd>{fullName(a.user)}</dd>
        </div>
        <div>
          <dt>{t('fields.email')}</dt>
          <dd>{a.user.email}</dd>
        </div>
        <div>
          <dt>{t('admin.columns.created_by')}</dt>
          <dd>{fullName(a.created_by)}</dd>
        </div>
        <div>
          <dt>{t('admin.columns.submitted')}</dt>
          <dd>{formatDate(a.created_at)}</dd>
        </div>
        {a.reviewed_at && (
          <div>
            <dt>{t('admin.columns.reviewed_at')}</dt>
            <dd>{formatDate(a.reviewed_at)}</dd>
          </div>
        )}
      </dl>
      {a.admin_comment && (
        <p className="admin-comment">
          <strong>{t('admin.columns.admin_comment')}:</strong> {a.admin_comment}
        </p>
      )}
      {Object.entries(FIELD_GROUPS).map(([group, names]) => (
        <section key={group} className="detail-group">
          <h3>{t(`admin.apps.sections.${group}`)}</h3>
          <dl className="details">
            {FIELDS.filter((f) => (names as readonly string[]).includes(f.name) && applies(f, a)).map((field) => (
              <div key={field.name}>
                <dt>{t(`survey.fields.${field.name}`)}</dt>
                <dd>{answerText(t, field, a[field.name])}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Modal>
  );
}

function DecisionModal({ ids, onClose, onDone }: { ids: number[]; onClose(): void; onDone(): Promise<void> }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [decision, setDecision] = useState<Decision>('approved');
  const [comment, setComment] = useState('');
  const [notify, setNotify] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const bulk = ids.length > 1;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (bulk) {
        const { results } = await decideMany(ids, decision, comment, notify);
        const done = results.filter((r) => r.success).length;
        toast(
          done === results.length ? 'success' : 'error',
          t('admin.apps.bulk_done', { done, failed: results.length - done }),
        );
      } else {
        await decide(ids[0]!, decision, comment, notify);
        toast('success', t('admin.apps.updated'));
      }
      await onDone();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const title = bulk ? t('admin.apps.bulk_title', { count: ids.length }) : t('admin.apps.status_title');
  return (
    <Modal
      title={title}
      closeLabel={t('common.cancel')}
      onClose={onClose}
      actions={
        <button type="submit" form="decision-form" className="button" disabled={busy}>
          {busy ? t('common.saving') : t('admin.apps.update')}
        </button>
      }
    >
      <form id="decision-form" onSubmit={submit} noValidate>
        {error !== null && (
          <ErrorBox messages={errorMessages(error, t, bulk ? 'admin.apps.bulk_failed' : 'admin.apps.update_failed')} />
        )}
        <fieldset className="choice">
          <legend>{t('admin.apps.decision')}</legend>
          {(['approved', 'rejected'] as const).map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                name="decision"
                value={value}
                checked={decision === value}
                onChange={() => setDecision(value)}
              />
              <span>{t(value === 'approved' ? 'admin.apps.approve' : 'admin.apps.reject')}</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="decision-comment">{t('admin.apps.comment')}</label>
          <textarea id="decision-comment" rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} />
          <span>{t('admin.apps.notify')}</span>
        </label>
      </form>
    </Modal>
  );
}

function CreateForUserModal({ onClose, onDone }: { onClose(): void; onDone(): Promise<void> }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [people, setPeople] = useState<PersonCard[] | null>(null);
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
              {`${p.first_name} ${p.last_name}`.trim()} — {p.email}
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
