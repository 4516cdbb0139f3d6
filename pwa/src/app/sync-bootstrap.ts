// Everything a signed-in device needs to sync, loaded only once someone signs
// in (Dexie stays off a visitor's first visit). Entity handlers are registered
// here, before the first pull, so no change arrives for an unknown entity.
import { surveyEntity } from '../features/applications/local';
import { localDb, type LocalDb } from '../lib/local-db';
import { registerEntity, startSync } from '../lib/sync-engine';

registerEntity('survey', surveyEntity);

export function boot(userId: number): { db: LocalDb; stop: () => void } {
  const db = localDb(userId);
  return { db, stop: startSync(db) };
}
