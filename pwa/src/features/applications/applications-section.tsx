// The customer's farmer applications (docs/product.md, Screens, "Customer
// Applications"). Everything reads and writes the local database, so it
// works with no signal; the sync engine carries changes to the server.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/dialog';
import { ClipboardIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import type { LocalDb } from '../../lib/sync/local-db';
import { newUid } from '../../lib/sync/engine';
import { deleteApplication, useApplications, type Applicant, type Application } from '../../lib/entities/applications';
import { useOutbox } from '../../lib/sync/use-outbox';
import { personName, useSavedPeople } from '../../lib/entities/people';
import { ApplicationForm } from '../../components/applications/application-form';
import { ApplicationCard } from './application-card';
import { ApplicationDetails } from './application-details';
import '../../components/applications/applications.css';

type View = { mode: 'list' } | { mode: 'form'; uid: string; isNew: boolean } | { mode: 'details'; uid: string };

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
    const person = saved?.people.find((p) => (p.id !== undefined && p.id === a.user_id) || p.uid === a.person_uid);
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
        person={agent && current ? applicantFor(current, applicantOf(current)) : undefined}
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

/** Whom an application a field agent filled is for, as its form needs it. */
function applicantFor(a: Application, name: string | undefined): { applicant: Applicant; name: string } | undefined {
  if (a.user_id !== undefined) return { applicant: { user_id: a.user_id }, name: name ?? '' };
  if (a.person_uid) return { applicant: { person_uid: a.person_uid }, name: name ?? '' };
  return undefined;
}
