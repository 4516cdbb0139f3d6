// Opens the signed-in account's local database and keeps it syncing.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { fetchMe, useSession } from '../features/auth/session';
import type { LocalDb } from '../lib/local-db';

const LocalDbContext = createContext<LocalDb | null>(null);

export function SyncProvider({ children }: { children: ReactNode }) {
  const { user, updateUser } = useSession();
  const userId = user?.id;
  const isBuyer = user?.role === 'user';
  const [db, setDb] = useState<LocalDb | null>(null);
  useEffect(() => {
    if (userId === undefined) {
      setDb(null);
      return;
    }
    let stop: (() => void) | undefined;
    let cancelled = false;
    // An approved application made a buyer a farmer: load the new role (and dashboard).
    const onApproved = () => {
      if (isBuyer) void fetchMe().then((me) => !cancelled && updateUser(me), () => undefined);
    };
    void import('./sync-bootstrap').then(({ boot }) => {
      if (cancelled) return;
      const started = boot(userId, onApproved);
      stop = started.stop;
      setDb(started.db);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, isBuyer, updateUser]);
  return <LocalDbContext.Provider value={db}>{children}</LocalDbContext.Provider>;
}

/** The signed-in account's local database, or null when signed out (or still opening). */
export function useLocalDb(): LocalDb | null {
  return useContext(LocalDbContext);
}
