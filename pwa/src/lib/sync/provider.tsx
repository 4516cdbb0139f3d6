// Opens the local database and keeps it syncing: the signed-in account's, or,
// for a visitor on a catalogue page, a guest one holding the public catalogue.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { fetchMe, useSession } from '../session';
import type { LocalDb } from './local-db';
import { setCartOwner } from '../cart';

interface LocalDbValue {
  db: LocalDb | null;
  /** A visitor opened a page that reads the catalogue: open the guest database. */
  wantCatalogue(): void;
}

const LocalDbContext = createContext<LocalDbValue>({ db: null, wantCatalogue: () => undefined });

export function SyncProvider({ children }: { children: ReactNode }) {
  const { user, status, updateUser } = useSession();
  const [catalogueWanted, setCatalogueWanted] = useState(false);
  const key = user ? user.id : status === 'ready' && catalogueWanted ? 'guest' : undefined;
  const isBuyer = user?.role === 'user';
  const [db, setDb] = useState<LocalDb | null>(null);
  useEffect(() => {
    if (key === undefined) {
      setDb(null);
      return;
    }
    let stop: (() => void) | undefined;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    // An approved application made a buyer a farmer: load the new role (and dashboard),
    // again a little later if the network dropped meanwhile (the approval is only seen once).
    const onApproved = () => {
      if (!isBuyer) return;
      const load = (): void =>
        void fetchMe().then(
          (me) => !cancelled && updateUser(me),
          () => {
            if (!cancelled) retry = setTimeout(load, 5000);
          },
        );
      load();
    };
    void import('./bootstrap').then(({ boot }) => {
      if (cancelled) return;
      const started = boot(key, onApproved);
      stop = started.stop;
      setDb(started.db);
    });
    return () => {
      cancelled = true;
      clearTimeout(retry);
      stop?.();
    };
  }, [key, isBuyer, updateUser]);
  // Each person on a shared phone sees their own cart (a visitor's joins theirs).
  const cartOwner = user ? user.id : status === 'ready' ? null : undefined;
  useEffect(() => {
    if (cartOwner !== undefined) setCartOwner(cartOwner);
  }, [cartOwner]);
  const wantCatalogue = useCallback(() => setCatalogueWanted(true), []);
  const value = useMemo(() => ({ db, wantCatalogue }), [db, wantCatalogue]);
  return <LocalDbContext.Provider value={value}>{children}</LocalDbContext.Provider>;
}

/** The signed-in account's local database, or null when signed out (or still opening). */
export function useLocalDb(): LocalDb | null {
  const { db } = useContext(LocalDbContext);
  return db?.name.endsWith('-guest') ? null : db;
}

/** Whichever database is open: the account's, a visitor's guest one, or none yet. */
export function useOpenDb(): LocalDb | null {
  return useContext(LocalDbContext).db;
}

/** The database that holds the catalogue, for anyone (a visitor's is opened on first use). */
export function useCatalogueDb(): LocalDb | null {
  const { db, wantCatalogue } = useContext(LocalDbContext);
  useEffect(() => {
    wantCatalogue();
  }, [wantCatalogue]);
  return db;
}
