// The admin's Applications screen (docs/product.md, Screens, "Admin Applications"):
// stat cards, filters, a page of the table, details, decisions one at a time
// or in bulk, CSV export, and an application made for a chosen person.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField } from '../../components/form';
import { ClipboardIcon } from '../../components/icons';
import { errorMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import {
  applicationQuery,
  fetchApplications,
  type AdminApplication,
  type ApplicationFilters,
  type ApplicationPage,
  reviewable,
} from './api';
import { FilterBar, ListPending, useAdminList } from './admin-list';
import { StatCard } from '../../components/stat-card';
import { Pager } from '../../components/pager';
import { ApplicationDetailsModal } from './application-details-modal';
import { DecisionModal } from './decision-modal';
import { CreateForUserModal } from './create-for-user-modal';
import { StatusBadge } from '../../components/applications/status-badge';
import { personName } from '../../lib/entities/people';

const STATUSES = ['pending', 'approved', 'rejected', 're-submitted'] as const;
const PERIODS = ['all', 'today', 'week', 'month'] as const;

type Dialog =
  { kind: 'details'; application: AdminApplication } | { kind: 'decide'; ids: number[] } | { kind: 'create' } | null;

export function AdminApplications() {
  const { t } = useTranslation();
  const list = useAdminList<ApplicationFilters, ApplicationPage>(
    { q: '', status: '', period: 'all' },
    fetchApplications,
  );
  const { filters, setPage, result, error, loading } = list;
  const load = list.reload;
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);

  const setFilter = <K extends keyof ApplicationFilters>(key: K, value: ApplicationFilters[K]) => {
    list.setFilter(key, value);
    setSelected(new Set());
  };

  const afterChange = async () => {
    setDialog(null);
    setSelected(new Set());
    await load();
  };

  if (!result) return <ListPending error={error} failedKey="admin.apps.load_failed" retry={() => void load()} />;

  const rows = result.data;
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

      <FilterBar
        search={{
          value: filters.q,
          placeholder: t('admin.apps.search_placeholder'),
          onChange: (q) => setFilter('q', q),
        }}
        exportPath={`/admin/surveys/export?${applicationQuery(list.asked, { lang: currentLanguage() })}`}
        actions={
          <button type="button" className="button" onClick={() => setDialog({ kind: 'create' })}>
            <ClipboardIcon /> {t('admin.apps.create')}
          </button>
        }
      >
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
      </FilterBar>

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
                    <strong>{personName(a.user)}</strong>
                    <br />
                    <span className="muted">{a.user.email}</span>
                  </td>
                  <td data-label={t('admin.columns.created_by')}>{personName(a.created_by)}</td>
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
      <Pager list={result} onPage={setPage} />

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
