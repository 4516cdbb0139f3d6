// Signing out of a shared phone: changes not yet sent stay in the person's own
// local database (each account on a phone has its own, with its own device id),
// so they are sent when that person signs in here again. Asked first, so
// nobody thinks they were sent.
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignOut } from '../lib/session';
import { useLocalDb } from '../lib/sync/provider';
import { ConfirmDialog } from './dialog';

export function useSignOutAsking(): { signOut(): void; dialog: ReactNode } {
  const { t } = useTranslation();
  const signOut = useSignOut();
  const db = useLocalDb();
  const [waiting, setWaiting] = useState(0);
  const request = useCallback(async () => {
    const count = db ? await db.outbox.where('state').equals('queued').count() : 0;
    if (count === 0) await signOut();
    else setWaiting(count);
  }, [db, signOut]);
  const dialog = (
    <ConfirmDialog
      open={waiting > 0}
      title={t('sign_out.title')}
      confirmLabel={t('nav.logout')}
      cancelLabel={t('sign_out.stay')}
      onConfirm={() => {
        setWaiting(0);
        void signOut();
      }}
      onCancel={() => setWaiting(0)}
    >
      <p>{t('sign_out.waiting', { count: waiting })}</p>
    </ConfirmDialog>
  );
  return { signOut: () => void request(), dialog };
}
