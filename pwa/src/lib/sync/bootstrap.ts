// Everything a signed-in device needs to sync, loaded only once someone signs
// in (Dexie stays off a visitor's first visit). Entity handlers are registered
// here, before the first pull, so no change arrives for an unknown entity.
import { liveQuery } from 'dexie';
import { surveyEntity } from '../entities/applications';
import { courseEntity, enrolmentEntity } from '../entities/courses';
import { adoptLocalFavourites, favouriteEntity } from '../entities/favourites';
import { orderEntity } from '../entities/orders';
import { productEntity } from '../entities/products';
import { localDb, type LocalDb } from './local-db';
import { blogEntity } from '../entities/news';
import { commentEntity } from '../entities/comments';
import { rateEntity } from '../entities/rates';
import { personEntity } from '../entities/people';
import { notificationEntity } from '../entities/notifications';
import { priceEntity } from '../entities/prices';
import { deliveryEntity } from '../entities/cooperatives';
import { registerEntity, startSync } from './engine';

registerEntity('survey', surveyEntity);
registerEntity('product', productEntity);
registerEntity('favourite', favouriteEntity);
registerEntity('order', orderEntity);
registerEntity('course', courseEntity);
registerEntity('enrolment', enrolmentEntity);
registerEntity('blog', blogEntity);
registerEntity('comment', commentEntity);
registerEntity('exchange_rate', rateEntity);
registerEntity('person', personEntity);
registerEntity('notification', notificationEntity);
registerEntity('price', priceEntity);
registerEntity('delivery', deliveryEntity);

/**
 * Starts syncing an account. `onApproved` is called when one of the person's
 * own applications is (or becomes) approved: the server made them a farmer,
 * so the session should load their new role.
 */
export function boot(userId: number | 'guest', onApproved: () => void): { db: LocalDb; stop: () => void } {
  const db = localDb(userId);
  const stopSync = startSync(db);
  if (userId === 'guest') return { db, stop: stopSync };
  void adoptLocalFavourites(db);
  const approved = liveQuery(() =>
    db.surveys.filter((s) => s.user_id === userId && s.status === 'approved').count(),
  ).subscribe({
    next: (count) => {
      if (count > 0) onApproved();
    },
  });
  return {
    db,
    stop: () => {
      approved.unsubscribe();
      stopSync();
    },
  };
}
