import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb } from '../sync/local-db';
import { registerEntity } from '../sync/engine';
import { saveApplication, surveyEntity } from './applications';

registerEntity('survey', surveyEntity);

describe('an edit of an application the server has', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends only the answers changed on this phone, on top of its version', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('applications-test');
    await db.surveys.put({ uid: 'u-1', version: 7, status: 'draft', land_size: '1-2 hectares', challenges: 'Pests' });
    // The form sends every question; someone else may have changed the ones left alone.
    await saveApplication(db, 'u-1', { land_size: '1-2 hectares', challenges: 'Drought', work_type: 'Alone' }, 'draft');
    const outbox = await db.outbox.toArray();
    expect(outbox.map((e) => [e.name, e.args, e.base])).toEqual([
      ['survey.update', { uid: 'u-1', answers: { challenges: 'Drought', work_type: 'Alone' }, status: 'draft' }, 7],
    ]);
    expect(await db.surveys.get('u-1')).toMatchObject({
      land_size: '1-2 hectares',
      challenges: 'Drought',
      work_type: 'Alone',
    });
    db.close();
  });
});
