// One person for the admin: details, history of changes, and the role/status controls the server allows.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { ErrorBox, SelectField } from '../../components/form';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { errorMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { ROLES, STATUSES, displayName, type AccountStatus, type Role } from '../../lib/account';
import { changeUser, fetchUserDetails, type UserDetails } from './api';
import './admin.css';

export function UserModal({ id, onClose, onChanged }: { id: number; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [details, setDetails] = useState<UserDetails | null>(null);
  const [role, setRole] = useState<Role>('user');
  const [status, setStatus] = useState<AccountStatus>('active');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const show = (answer: UserDetails) => {
    setDetails(answer);
    setRole(answer.data.role);
    setStatus(answer.data.status);
  };

  useEffect(() => {
    fetchUserDetails(id).then(show, setError);
  }, [id]);

  const save = async () => {
    if (!details) return;
    setBusy(true);
    setError(null);
    try {
      const changes = {
        ...(role !== details.data.role ? { role } : {}),
        ...(status !== details.data.status ? { status } : {}),
      };
      show(await changeUser(id, changes));
      toast('success', t('admin.users.saved'));
      onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const user = details?.data;
  const changed = user && (role !== user.role || status !== user.status);
  const may = details?.can_change;
  return (
    <Modal
      title={user ? displayName(user) : t('common.loading')}
      closeLabel={t('admin.close')}
      onClose={onClose}
      actions={
        may && (may.role || may.status) ? (
          <button type="button" className="button" onClick={() => void save()} disabled={busy || !changed}>
            {busy ? t('common.saving') : t('admin.users.save')}
          </button>
        ) : undefined
      }
    >
      {error !== null && <ErrorBox messages={errorMessages(error, t, 'admin.users.save_failed')} />}
      {!user ? (
        error === null && <Spinner label={t('common.loading')} />
      ) : (
        <>
          <dl className="details compact">
            <div>
              <dt>{t('fields.email')}</dt>
              <dd>{user.email ?? t('profile.not_provided')}</dd>
            </div>
            <div>
              <dt>{t('fields.phone_number')}</dt>
              <dd>{user.phone_number ?? t('profile.not_provided')}</dd>
            </div>
            <div>
              <dt>{t('fields.country')}</dt>
              <dd>{user.country ? t(`countries.${user.country}`) : t('profile.not_provided')}</dd>
            </div>
            <div>
              <dt>{t('fields.username')}</dt>
              <dd>{user.username ?? t('profile.not_provided')}</dd>
            </div>
            <div>
              <dt>{t('fields.location')}</dt>
              <dd>{user.location ?? t('profile.not_provided')}</dd>
            </div>
            <div>
              <dt>{t('profile.member_since')}</dt>
              <dd>{formatDate(user.created_at)}</dd>
            </div>
          </dl>
          <section className="detail-group">
            <h3>{t('admin.users.manage')}</h3>
            <SelectField
              label={t('admin.columns.role')}
              value={role}
              disabled={!may?.role}
              onChange={(e) => setRole(e.target.value as Role)}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r}`)}
                </option>
              ))}
            </SelectField>
            {!may?.role && <p className="hint">{t('admin.users.role_locked')}</p>}
            <SelectField
              label={t('admin.columns.status')}
              value={status}
              disabled={!may?.status}
              onChange={(e) => setStatus(e.target.value as AccountStatus)}
            >
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`statuses.${s}`)}
                </option>
              ))}
            </SelectField>
          </section>
          <section className="detail-group">
            <h3>{t('admin.users.history')}</h3>
            {details.changes.length === 0 ? (
              <p className="muted">{t('admin.users.no_history')}</p>
            ) : (
              <ul className="history">
                {details.changes.map((c, index) => {
                  const [from, to] =
                    c.field === 'role'
                      ? [t(`roles.${c.from}`), t(`roles.${c.to}`)]
                      : [t(`statuses.${c.from}`), t(`statuses.${c.to}`)];
                  return (
                    <li key={index}>
                      {t(c.field === 'role' ? 'admin.users.change_role' : 'admin.users.change_status', {
                        who: c.by.name,
                        from,
                        to,
                      })}
                      {' · '}
                      <time dateTime={c.at}>{formatDate(c.at, 'time')}</time>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </>
      )}
    </Modal>
  );
}
