// The admin's Users screen (docs/product.md, Screens, "Admin Users"): counts, filters,
// the table, a person's details with their role and status history, and
// the changes the signed-in admin is allowed to make (the server decides).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField } from '../../components/form';
import { errorMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { ROLES, STATUSES, displayName, type AccountStatus, type Role, type User } from '../../lib/account';
import { StatCard } from '../../components/stat-card';
import { fetchUserStats, fetchUsers, userQuery, type UserFilters, type UserStats } from './api';
import { FilterBar, ListPending, useAdminList } from './admin-list';
import { UserModal } from './user-modal';
import { CountryField } from '../../components/country-field';

const ROLE_BADGE: Record<Role, string> = {
  admin: 'red',
  super_admin: 'purple',
  farmer: 'green',
  user: 'grey',
  field_agent: 'blue',
};
const STATUS_BADGE: Record<AccountStatus, string> = { active: 'green', inactive: 'red', pending: 'yellow' };

/** The people matching the filters, and the counts by role (all of them). */
async function readUsers(filters: UserFilters): Promise<{ users: User[]; stats: UserStats }> {
  const [users, stats] = await Promise.all([fetchUsers(filters), fetchUserStats()]);
  return { users, stats };
}

export function AdminUsers() {
  const { t } = useTranslation();
  const list = useAdminList<UserFilters, { users: User[]; stats: UserStats }>(
    { q: '', role: '', status: '', country: '' },
    readUsers,
  );
  const [openId, setOpenId] = useState<number | null>(null);
  const { filters, setFilter, error } = list;

  if (!list.result)
    return <ListPending error={error} failedKey="admin.users.load_failed" retry={() => void list.reload()} />;
  const { users, stats } = list.result;

  return (
    <div className="admin-screen">
      <div className="stat-cards">
        <StatCard label={t('admin.users.farmers')} value={stats.by_role.farmer} />
        <StatCard label={t('admin.users.admins')} value={stats.by_role.admin} />
        <StatCard label={t('admin.users.super_admins')} value={stats.by_role.super_admin} />
        <StatCard label={t('admin.users.others')} value={stats.by_role.user + stats.by_role.field_agent} />
      </div>
      <FilterBar
        search={{
          value: filters.q,
          placeholder: t('admin.users.search_placeholder'),
          onChange: (q) => setFilter('q', q),
        }}
        exportPath={`/admin/users/export?${userQuery(list.asked, { lang: currentLanguage() })}`}
      >
        <SelectField
          label={t('admin.columns.role')}
          value={filters.role}
          onChange={(e) => setFilter('role', e.target.value as UserFilters['role'])}
        >
          <option value="">{t('admin.users.all_roles')}</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`roles.${r}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('admin.columns.status')}
          value={filters.status}
          onChange={(e) => setFilter('status', e.target.value as UserFilters['status'])}
        >
          <option value="">{t('admin.all_statuses')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`statuses.${s}`)}
            </option>
          ))}
        </SelectField>
        <CountryField
          blank={t('admin.users.all_countries')}
          value={filters.country}
          onChange={(e) => setFilter('country', e.target.value)}
        />
      </FilterBar>
      {error !== null && <ErrorBox messages={errorMessages(error, t, 'admin.users.load_failed')} />}
      {users.length === 0 ? (
        <p className="card empty-note">{t('admin.users.empty')}</p>
      ) : (
        <div className="table-wrap card">
          <table className="data-table stacked">
            <thead>
              <tr>
                <th scope="col">{t('admin.columns.name')}</th>
                <th scope="col">{t('admin.columns.role')}</th>
                <th scope="col">{t('admin.columns.status')}</th>
                <th scope="col">{t('fields.country')}</th>
                <th scope="col">{t('admin.columns.joined')}</th>
                <th scope="col">{t('admin.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td>
                    <strong>{displayName(u)}</strong>
                    <br />
                    <span className="muted">{u.email ?? u.phone_number}</span>
                  </td>
                  <td>
                    <span className={`badge ${ROLE_BADGE[u.role]}`}>{t(`roles.${u.role}`)}</span>
                  </td>
                  <td>
                    <span className={`badge ${STATUS_BADGE[u.status]}`}>{t(`statuses.${u.status}`)}</span>
                  </td>
                  <td data-label={t('fields.country')}>{u.country ? t(`countries.${u.country}`) : ''}</td>
                  <td data-label={t('admin.columns.joined')}>{formatDate(u.created_at, 'short')}</td>
                  <td>
                    <button type="button" className="button secondary small" onClick={() => setOpenId(u.id)}>
                      {t('admin.view')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">
        {t('admin.showing', { from: users.length ? 1 : 0, to: users.length, total: users.length })}
      </p>
      {openId !== null && (
        <UserModal id={openId} onClose={() => setOpenId(null)} onChanged={() => void list.reload()} />
      )}
    </div>
  );
}
