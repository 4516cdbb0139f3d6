// The field agent's Farmers section: the people they can visit, saved on the
// phone, and a new application for one of them that works with no signal.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField } from '../../components/form';
import { ClipboardIcon, RefreshIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatDate } from '../../lib/format';
import type { LocalDb, LocalPerson } from '../../lib/local-db';
import { newUid } from '../../lib/sync-engine';
import { ApplicationForm } from '../../components/applications/application-form';
import { useApplications } from '../../lib/applications';
import { matches, personName, refreshPeople, useSavedPeople } from '../../lib/people';

export function FarmersSection({ db }: { db: LocalDb }) {
  const { t } = useTranslation();
  const saved = useSavedPeople(db);
  const applications = useApplications(db);
  const [search, setSearch] = useState('');
  const [refreshing, setRefreshing] = useState(false);
  const [failed, setFailed] = useState(false);
  const [filling, setFilling] = useState<{ person: LocalPerson; uid: string } | null>(null);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      await refreshPeople(db);
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      setRefreshing(false);
    }
  }, [db]);

  // Once per visit to the section, when there is a signal.
  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (filling) {
    return (
      <ApplicationForm
        db={db}
        uid={filling.uid}
        existing={undefined}
        refused={undefined}
        person={{ id: filling.person.id, name: personName(filling.person) }}
        onDone={() => setFilling(null)}
      />
    );
  }
  if (!saved || !applications) return <Spinner label={t('common.loading')} />;

  const shown = saved.people.filter((p) => matches(p, search));
  const filledFor = (id: number) => applications.filter((a) => a.user_id === id).length;
  // One application per person waits for a decision (the server refuses a second).
  const waitingFor = (id: number) =>
    applications.some((a) => a.user_id === id && (a.status === 'pending' || a.status === 're-submitted'));
  return (
    <div className="agent-people">
      <div className="section-head">
        <h2>{t('agent.people_title')}</h2>
        <button type="button" className="button secondary small" onClick={() => void refresh()} disabled={refreshing}>
          <RefreshIcon /> {refreshing ? t('common.loading') : t('agent.refresh')}
        </button>
      </div>
      <p className="muted" role="status">
        {saved.updatedAt
          ? t('agent.saved_copy', { time: formatDate(saved.updatedAt, 'time') })
          : t('agent.never_saved')}
      </p>
      {failed && saved.updatedAt && <ErrorBox messages={[t('agent.refresh_failed')]} />}
      <TextField
        label={t('admin.search')}
        type="search"
        placeholder={t('agent.search_placeholder')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {shown.length === 0 ? (
        <p className="card empty-note">{saved.people.length === 0 ? t('agent.empty') : t('admin.users.empty')}</p>
      ) : (
        <ul className="people-list">
          {shown.map((p) => (
            <li key={p.id} className="card person-card">
              <div>
                <h3>{personName(p)}</h3>
                <p className="muted">{[p.phone_number, p.location].filter(Boolean).join(' · ')}</p>
                <p className="muted">
                  {t(`roles.${p.role}`)}
                  {filledFor(p.id) > 0 && ` · ${t('agent.your_applications')}: ${filledFor(p.id)}`}
                </p>
                {waitingFor(p.id) && <p className="sync-note wait">{t('agent.waiting_warning')}</p>}
              </div>
              <button type="button" className="button small" onClick={() => setFilling({ person: p, uid: newUid() })}>
                <ClipboardIcon /> {t('agent.new_for')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
