import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb, type LocalPerson } from '../sync/local-db';
import { registerEntity } from '../sync/engine';
import { saveApplication, surveyEntity } from './applications';
import { forgetRegistration, matches, personEntity, registerPerson } from './people';

registerEntity('survey', surveyEntity);
registerEntity('person', personEntity);

const grace: LocalPerson = {
  id: 4,
  first_name: 'Grace',
  last_name: 'Uwimana',
  email: 'grace@example.com',
  phone_number: '+250780000004',
  country: 'RWA',
  location: 'Rusizi',
  role: 'user',
};

describe('the agent people list', () => {
  it('finds a person by any part of name, phone or place, in any case', () => {
    expect(matches(grace, 'RUSIZI')).toBe(true);
    expect(matches(grace, 'grace uwi')).toBe(true);
    expect(matches(grace, '0780000004')).toBe(true);
    expect(matches(grace, 'grace kabare')).toBe(false);
  });
});

describe('an application filled for someone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('queues the applicant with the create, and keeps it through later edits', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('agent-test');
    await saveApplication(db, 'u-1', { land_size: '1-2 hectares' }, 'draft', { user_id: grace.id });
    await saveApplication(db, 'u-1', { work_type: 'Alone' }, 'draft', { user_id: grace.id });
    const outbox = await db.outbox.toArray();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.name).toBe('survey.create');
    expect(outbox[0]!.args).toMatchObject({ user_id: 4, answers: { land_size: '1-2 hectares', work_type: 'Alone' } });
    expect(await db.surveys.get('u-1')).toMatchObject({ user_id: 4, status: 'draft', work_type: 'Alone' });
    db.close();
  });
});

describe('a person registered on the phone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is queued before the application filed for them, which names them by the registration', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('register-test');
    const person = { first_name: 'Furaha', last_name: 'Mapendo', phone_number: '0997 000 111', country: 'DRC' };
    const uid = await registerPerson(db, { ...person, location: 'Kavumu' });
    await saveApplication(db, 'u-2', { land_size: '1-2 hectares' }, 'pending', { person_uid: uid });
    const outbox = await db.outbox.orderBy('mutation_id').toArray();
    expect(outbox.map((e) => e.name)).toEqual(['person.register', 'survey.create']);
    expect(outbox[0]!.args).toEqual({ uid, ...person, location: 'Kavumu' });
    expect(outbox[1]!.args).toMatchObject({ person_uid: uid, status: 'pending' });
    expect(await db.registrations.get(uid)).toMatchObject({ ...person, location: 'Kavumu' });
    expect(await db.surveys.get('u-2')).toMatchObject({ person_uid: uid });
    await forgetRegistration(db, uid);
    expect(await db.registrations.count()).toBe(0);
    expect((await db.outbox.toArray()).map((e) => e.name)).toEqual(['survey.create']);
    db.close();
  });
});
