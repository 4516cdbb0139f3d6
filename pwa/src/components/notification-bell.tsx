// The bell in the dashboard's top bar and the public header: the unread count, and the latest
// notifications; opening one marks it read and goes to what it is about.
import { useCallback, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BellIcon } from './icons';
import { formatDate } from '../lib/format';
import type { LocalDb } from '../lib/sync/local-db';
import { markRead, sectionOf, useNotifications, type Notification } from '../lib/entities/notifications';
import { useDismiss } from '../lib/use-dismiss';
import './notification-bell.css';

export function NotificationBell({ db, onSection }: { db: LocalDb; onSection(section: string): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notifications = useNotifications(db);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const unread = notifications?.unread ?? 0;
  const box = useRef<HTMLDivElement>(null);

  // Escape or a tap elsewhere closes the panel, as people expect of a menu.
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, box, close);

  const openOne = (n: Notification) => {
    void markRead(db, n);
    setOpen(false);
    const section = sectionOf(n.link);
    if (section) onSection(section);
    else void navigate(n.link);
  };

  return (
    <div className="bell" ref={box}>
      <button
        type="button"
        className="icon-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('notifications.bell', { count: unread })}
        onClick={() => setOpen((o) => !o)}
      >
        <BellIcon />
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div className="card bell-panel" id={panelId} role="region" aria-label={t('notifications.title')}>
          <h2>{t('notifications.title')}</h2>
          {notifications && notifications.latest.length > 0 ? (
            <ul>
              {notifications.latest.map((n) => (
                <li key={n.uid} className={n.read ? '' : 'unread'}>
                  <button type="button" className="link-button" onClick={() => openOne(n)}>
                    {t(`notifications.${n.kind}`, { ...n.params, defaultValue: n.kind })}
                  </button>
                  <time className="muted" dateTime={n.created_at}>
                    {formatDate(n.created_at, 'short')}
                  </time>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('notifications.none')}</p>
          )}
        </div>
      )}
    </div>
  );
}
