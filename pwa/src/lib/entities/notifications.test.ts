import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb } from '../sync/local-db';
import { registerEntity } from '../sync/engine';
import { markRead, notificationEntity, sectionOf, type Notification } from './notifications';

registerEntity('notification', notificationEntity);

describe('notifications on the phone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('open a dashboard section or another page of the app', () => {
    expect(sectionOf('/dashboard?section=orders')).toBe('orders');
    expect(sectionOf('/news/12')).toBeNull();
    expect(sectionOf('/dashboard')).toBeNull();
  });

  it('are marked read at once on the phone and the change is queued once', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('notifications-test');
    const note: Notification = {
      uid: 'n-1',
      kind: 'order_shipped',
      link: '/dashboard?section=orders',
      params: { number: '7' },
      read: false,
      created_at: '2026-11-24T08:00:00Z',
    };
    await db.notifications.put(note);
    await markRead(db, note);
    await markRead(db, { ...note, read: true });
    expect(await db.notifications.get('n-1')).toMatchObject({ read: true });
    const outbox = await db.outbox.toArray();
    expect(outbox.map((e) => [e.name, e.args])).toEqual([['notification.read', { uid: 'n-1' }]]);
    db.close();
  });
});
