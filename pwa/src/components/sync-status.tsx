// The sync state, readable everywhere: offline, "N changes waiting",
// syncing, synced, or a refused change; tapping it shows the queue.
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocalDb } from '../lib/sync/local-db';
import { useOutbox } from '../lib/sync/use-outbox';
import { useOnline } from '../lib/use-online';
import { engineState, subscribe, syncNow } from '../lib/sync/engine';
import { AlertIcon, CheckIcon, ClockIcon, CloseIcon } from './icons';

export function SyncStatus({ db }: { db: LocalDb }) {
  const { t } = useTranslation();
  const online = useOnline();
  const engine = useSyncExternalStore(subscribe, engineState);
  const outbox = useOutbox(db);
  const [open, setOpen] = useState(false);
  const waiting = outbox.filter((e) => e.state === 'queued').length;
  const refused = outbox.filter((e) => e.state === 'rejected');

  let label: string;
  let tone: 'ok' | 'wait' | 'bad';
  if (refused.length > 0) [label, tone] = [t('sync.refused', { count: refused.length }), 'bad'];
  else if (!online)
    [label, tone] = [waiting ? t('sync.offline_waiting', { count: waiting }) : t('sync.offline'), 'wait'];
  else if (engine.syncing) [label, tone] = [t('sync.syncing'), 'wait'];
  else if (waiting) [label, tone] = [t('sync.waiting', { count: waiting }), 'wait'];
  else if (engine.error) [label, tone] = [t('sync.failed'), 'bad'];
  else [label, tone] = [t('sync.synced'), 'ok'];

  return (
    <div className="sync-status">
      <button type="button" className={`sync-pill ${tone}`} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {tone === 'ok' ? <CheckIcon /> : tone === 'bad' ? <AlertIcon /> : <ClockIcon />}
        {waiting > 0 && (
          <span className="sync-count" aria-hidden="true">
            {waiting}
          </span>
        )}
        <span className="sync-label" role="status">
          {label}
        </span>
      </button>
      {open && (
        <div className="sync-panel" role="dialog" aria-label={t('sync.queue_title')}>
          <div className="sync-panel-head">
            <strong>{t('sync.queue_title')}</strong>
            <button
              type="button"
              className="icon-button"
              onClick={() => setOpen(false)}
              aria-label={t('common.dismiss')}
            >
              <CloseIcon />
            </button>
          </div>
          {outbox.length === 0 ? (
            <p className="muted">{t('sync.queue_empty')}</p>
          ) : (
            <ul className="sync-queue">
              {outbox.map((entry) => (
                <li key={entry.mutation_id}>
                  <span>{t(`sync.kinds.${entry.name.replace('.', '_')}`, { defaultValue: entry.name })}</span>
                  <span className={entry.state === 'rejected' ? 'badge red' : 'badge grey'}>
                    {entry.state === 'rejected' ? t('sync.state_refused') : t('sync.state_waiting')}
                  </span>
                  {entry.result?.code && (
                    <p className="muted">
                      {t(`errors.${entry.result.code}`, { defaultValue: entry.result.message ?? '' })}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
          {engine.error && <p className="muted">{t(`errors.${engine.error}`, { defaultValue: t('sync.failed') })}</p>}
          <button
            type="button"
            className="button small"
            disabled={!online || engine.syncing}
            onClick={() => void syncNow(db)}
          >
            {t('sync.now')}
          </button>
        </div>
      )}
    </div>
  );
}
