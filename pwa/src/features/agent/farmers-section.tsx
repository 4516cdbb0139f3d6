// The field agent's Farmers section: the people they can visit, saved on the
// phone, a person registered there, and a new application for one of them, all
// of which work with no signal; and, with a signal, an application a person began
// themselves (in the app or on a basic phone), finished with them.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField } from '../../components/form';
import { errorMessages } from '../../lib/error-text';
import { syncNow } from '../../lib/sync/engine';
import { useOnline } from '../../lib/use-online';
import { ClipboardIcon, RefreshIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatDate, placeName } from '../../lib/format';
import type { LocalDb } from '../../lib/sync/local-db';
import { newUid } from '../../lib/sync/engine';
import { ApplicationForm } from '../../components/applications/application-form';
import { useApplications, type Applicant, type Application } from '../../lib/entities/applications';
import {
  forgetRegistration,
  matches,
  personName,
  refreshPeople,
  takeUpDraft,
  useSavedPeople,
  type Visitable,
} from '../../lib/entities/people';
import { RegisterPerson } from './register-person';
import './agent.css';
import '../../components/applications/applications.css';

/** Whom an application for `p` names: the server's id, or this phone's registration. */
function applicantOf(p: Visitable): Applicant | undefined {
  if (p.id !== undefined) return { user_id: p.id };
  return p.uid ? { person_uid: p.uid } : undefined;
}

/** Whether application `a` is for `p`, named either way. */
function isFor(a: Application, p: Visitable): boolean {
  return (p.id !== undefined && a.user_id === p.id) || (!!p.uid && a.person_uid === p.uid);
}

export function FarmersSection({ db }: { db: LocalDb }) {
  const { t } = useTranslation();
  const saved = useSavedPeople(db);
  const applications = useApplications(db);
  const [search, setSearch] = useState('');
  const [refreshing, setRefreshing] = useState(false);
  const [failed, setFailed] = useState(false);
  const [filling, setFilling] = useState<{
    applicant: Applicant;
    name: string;
    uid: string;
    existing?: Application;
    registered?: boolean;
  } | null>(null);
  const [registering, setRegistering] = useState(false);
  const [takeUpFailed, setTakeUpFailed] = useState<string[]>([]);
  const online = useOnline();

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
  // A registration made here reached the server: its list now has the person (with their
  // applications' state), so the card offers only what they can still do.
  const sentHere = saved?.people.filter((p) => p.registered === 'sent').length ?? 0;
  useEffect(() => {
    if (sentHere > 0 && online) void refresh();
  }, [sentHere, online, refresh]);

  /** Opens the application `p` began themselves, taken up from the server. */
  const finishTheirs = async (p: Visitable) => {
    if (p.id === undefined) return;
    setTakeUpFailed([]);
    try {
      const uid = await takeUpDraft(p.id);
      await syncNow(db);
      const existing = await db.surveys.get(uid);
      setFilling({ applicant: { user_id: p.id }, name: personName(p), uid, existing });
    } catch (error) {
      setTakeUpFailed(errorMessages(error, t, 'agent.take_up_failed'));
    }
  };

  if (filling) {
    return (
      <ApplicationForm
        db={db}
        uid={filling.uid}
        existing={filling.existing}
        refused={undefined}
        person={{ applicant: filling.applicant, name: filling.name, registered: filling.registered }}
        onDone={() => setFilling(null)}
      />
    );
  }
  if (registering) {
    return (
      <RegisterPerson
        db={db}
        onCancel={() => setRegistering(false)}
        onRegistered={({ uid, name }) => {
          setRegistering(false);
          // Registered to fill their application: it opens at once.
          setFilling({ applicant: { person_uid: uid }, name, uid: newUid(), registered: true });
        }}
      />
    );
  }
  if (!saved || !applications) return <Spinner label={t('common.loading')} />;

  const shown = saved.people.filter((p) => matches(p, search));
  const filledFor = (p: Visitable) => applications.filter((a) => isFor(a, p)).length;
  // One application per person waits for a decision (the server refuses a second): one this
  // phone holds, or one the server's list says waits (the person's own, another agent's).
  const draftFor = (p: Visitable) => applications.find((a) => isFor(a, p) && a.status === 'draft');
  const waitingFor = (p: Visitable) =>
    p.application_waiting === true ||
    applications.some((a) => isFor(a, p) && (a.status === 'pending' || a.status === 're-submitted'));
  return (
    <div className="agent-people">
      <div className="section-head">
        <h2>{t('agent.people_title')}</h2>
        <button type="button" className="button secondary small" onClick={() => void refresh()} disabled={refreshing}>
          <RefreshIcon /> {refreshing ? t('common.loading') : t('agent.refresh')}
        </button>
      </div>
      <button type="button" className="button" onClick={() => setRegistering(true)}>
        {t('agent.register')}
      </button>
      <p className="muted" role="status">
        {saved.updatedAt
          ? t('agent.saved_copy', { time: formatDate(saved.updatedAt, 'time') })
          : t('agent.never_saved')}
      </p>
      {failed && saved.updatedAt && <ErrorBox messages={[t('agent.refresh_failed')]} />}
      <ErrorBox messages={takeUpFailed} />
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
          {shown.map((p) => {
            const applicant = applicantOf(p);
            const refused = typeof p.registered === 'object' ? p.registered : undefined;
            return (
              <li key={p.id ?? p.uid} className="card person-card">
                <div>
                  <h3>{personName(p)}</h3>
                  <p className="muted">
                    {[p.phone_number, p.location && placeName(p.location, t)].filter(Boolean).join(' · ')}
                  </p>
                  <p className="muted">
                    {t(`roles.${p.role}`)}
                    {filledFor(p) > 0 && ` · ${t('agent.your_applications')}: ${filledFor(p)}`}
                  </p>
                  {p.registered === 'waiting' && <p className="sync-note wait">{t('agent.registered_waiting')}</p>}
                  {p.registered === 'sent' && <p className="sync-note">{t('agent.registered_sent')}</p>}
                  {refused && (
                    <p className="sync-note refused" role="alert">
                      {t('agent.registered_refused')}{' '}
                      {Object.values(refused.result?.error_codes ?? {})
                        .flat()
                        .map((code) => t(`errors.${code}`, { defaultValue: code }))
                        .join(' ')}
                    </p>
                  )}
                  {waitingFor(p) && <p className="sync-note wait">{t('agent.waiting_warning')}</p>}
                  {p.own_draft && !waitingFor(p) && <p className="sync-note">{t('agent.own_draft')}</p>}
                </div>
                {refused ? (
                  <button
                    type="button"
                    className="button secondary small"
                    onClick={() => p.uid && void forgetRegistration(db, p.uid)}
                  >
                    {t('common.remove')}
                  </button>
                ) : draftFor(p) ? (
                  // A draft on this phone (begun here, or taken up) is continued, not begun again.
                  <button
                    type="button"
                    className="button small"
                    onClick={() => {
                      const draft = draftFor(p);
                      if (applicant && draft) {
                        setFilling({ applicant, name: personName(p), uid: draft.uid, existing: draft });
                      }
                    }}
                  >
                    <ClipboardIcon /> {t('agent.continue')}
                  </button>
                ) : p.own_draft && !waitingFor(p) ? (
                  // Their own draft is finished, not a second one begun; it needs a signal.
                  <button
                    type="button"
                    className="button small"
                    disabled={!online}
                    title={online ? undefined : t('agent.take_up_offline')}
                    onClick={() => void finishTheirs(p)}
                  >
                    <ClipboardIcon /> {t('agent.finish_theirs')}
                  </button>
                ) : (
                  // Told before the form opens, not refused after it was filled and sent; a
                  // farmer has been approved already.
                  applicant &&
                  p.role !== 'farmer' &&
                  !waitingFor(p) && (
                    <button
                      type="button"
                      className="button small"
                      onClick={() => setFilling({ applicant, name: personName(p), uid: newUid() })}
                    >
                      <ClipboardIcon /> {t('agent.new_for')}
                    </button>
                  )
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
