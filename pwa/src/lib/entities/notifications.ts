// The person's notifications (docs/api.md, Notifications): pulled with everything
// else, shown under the bell, marked read through the queue, so it works offline.
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from '../sync/local-db';
import type { Notification } from '../sync/stored';
import { enqueue, type EntityHandler } from '../sync/engine';

export type { Notification };

/** The bell shows this many, newest first. */
export const SHOWN = 30;

export const notificationEntity: EntityHandler = {
  table: (db) => db.notifications,
  async apply(db, mutation) {
    await db.notifications.update(mutation.args.uid as string, { read: true });
  },
};

/** The latest notifications and how many are unread; `undefined` while loading. */
export function useNotifications(db: LocalDb): { latest: Notification[]; unread: number } | undefined {
  return useLiveQuery(async () => {
    const latest = await db.notifications.orderBy('created_at').reverse().limit(SHOWN).toArray();
    const unread = await db.notifications.filter((n) => !n.read).count();
    return { latest, unread };
  }, [db]);
}

export async function markRead(db: LocalDb, notification: Notification): Promise<void> {
  if (!notification.read) await enqueue(db, 'notification.read', { uid: notification.uid });
}

/** The dashboard section a link opens, when it is one. */
export function sectionOf(link: string): string | null {
  const url = new URL(link, 'https://app.invalid');
  return url.pathname === '/dashboard' ? url.searchParams.get('section') : null;
}
