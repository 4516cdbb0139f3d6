// A short line at the top of every screen when the network is not carrying what the
// person does: offline (for visitors too), or online by the phone's account but with
// changes that have waited a few seconds to go (a signal with no data getting through);
// also when a language was asked for whose words are not on the phone yet, and when a
// screen's code is still coming after a few seconds (lib/code-wait.ts).
// The header's sync pill says the same on wide screens; on a phone it is an icon.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCodeWaiting } from '../lib/code-wait';
import { LANGUAGE_NAMES, useMissingLanguage } from '../lib/i18n';
import { useLocalDb } from '../lib/sync/provider';
import { useOnline } from '../lib/use-online';
import { ClockIcon } from './icons';

// Not in the first render's code: the local database's (dexie, ~27 KB compressed) would
// come with it, on a page that never opens one (a visitor's home, help or about page).
const WaitingCount = lazy(async () => ({ default: (await import('../lib/sync/use-outbox')).WaitingCount }));

/** A normal sync sends a change in a moment, and a screen's code comes in a moment or two
 * on slow 3G: only one still waiting after this is said. */
const STUCK_AFTER_MS = 3000;

function useLasting(value: boolean, ms: number): boolean {
  const [lasting, setLasting] = useState(false);
  useEffect(() => {
    if (!value) {
      setLasting(false);
      return;
    }
    const timer = setTimeout(() => setLasting(true), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return value && lasting;
}

export function ConnectionNote() {
  const { t } = useTranslation();
  const online = useOnline();
  const db = useLocalDb();
  const [waiting, setWaiting] = useState(0);
  const count = db ? waiting : 0;
  const stuck = useLasting(online && count > 0, STUCK_AFTER_MS);
  const coming = useLasting(useCodeWaiting() && online, STUCK_AFTER_MS);
  const missing = useMissingLanguage();
  let text: string | null = null;
  if (!online) {
    if (count > 0) text = t('connection.offline_waiting', { count });
    else text = db ? t('connection.offline') : t('connection.offline_visitor');
  } else if (stuck) text = t('connection.not_through', { count });
  const also = [
    coming && t('connection.page_coming'),
    missing && t('connection.language_missing', { language: LANGUAGE_NAMES[missing] }),
  ];
  text = [text, ...also].filter(Boolean).join(' ') || null;
  return (
    <div className="connection-note-slot" role="status">
      {db && (
        <Suspense fallback={null}>
          <WaitingCount db={db} onCount={setWaiting} />
        </Suspense>
      )}
      {text && (
        <p className="connection-note">
          <ClockIcon /> {text}
        </p>
      )}
    </div>
  );
}
