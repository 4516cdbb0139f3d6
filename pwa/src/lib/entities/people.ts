// The people a field agent can visit, kept on the phone: the list is
// downloaded when there is a signal and read from the device when there is not,
// with the people the agent registered here that the server does not list yet.
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb, LocalPerson, OutboxEntry } from '../sync/local-db';
import { api } from '../api';
import { argsOf, enqueue, forget, newUid, type EntityHandler } from '../sync/engine';
import type { PersonRegister } from '../sync/protocol';

const UPDATED_KEY = 'people_updated_at';

/** The active buyers and farmers an agent or admin may fill an application for. */
export const fetchSurveyable = () => api<{ data: LocalPerson[] }>('/agent/people');

/** Takes up the draft application person `id` started themselves (in the app or on a
 * basic phone), to finish it with them; answers its uid (it arrives with the next pull). */
export const takeUpDraft = (id: number) =>
  api<{ uid: string }>(`/agent/people/${id}/application`, { method: 'POST' }).then((answer) => answer.uid);

/** Replaces the saved copy with the server's list, in one transaction; registrations
 * the server now lists are no longer needed. */
export async function refreshPeople(db: LocalDb): Promise<void> {
  const { data } = await fetchSurveyable();
  const known = data.map((p) => p.uid).filter((uid): uid is string => !!uid);
  await db.transaction('rw', db.people, db.meta, db.registrations, async () => {
    await db.people.clear();
    await db.people.bulkPut(data);
    await db.registrations.bulkDelete(known);
    await db.setMeta(UPDATED_KEY, new Date().toISOString());
  });
}

/** A person the agent can visit: from the server's list (with `id`), or registered
 * on this phone and not listed yet (`registered`: waiting to be sent, sent, or the
 * refused change). */
export type Visitable = Omit<LocalPerson, 'id'> & { id?: number; registered?: OutboxEntry | 'waiting' | 'sent' };

export interface SavedPeople {
  people: Visitable[];
  updatedAt: string | undefined;
}

/** By name; `undefined` while loading. */
export function useSavedPeople(db: LocalDb): SavedPeople | undefined {
  return useLiveQuery(async () => {
    const listed: Visitable[] = await db.people.toArray();
    const uids = new Set(listed.map((p) => p.uid));
    const registered = await db.registrations.toArray();
    const changes = await db.outbox
      .where('uid')
      .anyOf(registered.map((r) => r.uid))
      .toArray();
    const here: Visitable[] = registered
      .filter((r) => !uids.has(r.uid))
      .map((r) => ({
        ...r,
        email: null,
        location: r.location ?? null,
        role: 'user',
        registered: registrationState(changes.filter((e) => e.uid === r.uid)),
      }));
    const people = [...here, ...listed];
    people.sort((a, b) => `${a.first_name} ${a.last_name}`.localeCompare(`${b.first_name} ${b.last_name}`));
    return { people, updatedAt: await db.getMeta<string>(UPDATED_KEY) };
  }, [db]);
}

function registrationState(changes: OutboxEntry[]): OutboxEntry | 'waiting' | 'sent' {
  const refused = changes.find((e) => e.state === 'rejected');
  return refused ?? (changes.length > 0 ? 'waiting' : 'sent');
}

/** Registers a person from this phone, offline if need be; answers its uid. */
export async function registerPerson(db: LocalDb, person: Omit<PersonRegister, 'uid'>): Promise<string> {
  const uid = newUid();
  await enqueue(db, 'person.register', { uid, ...person });
  return uid;
}

/** Forgets a registration the server refused (and its refusal). */
export async function forgetRegistration(db: LocalDb, uid: string): Promise<void> {
  await forget(db, db.registrations, uid);
}

/** How registrations are kept on the phone until sent (they are never pulled). */
export const personEntity: EntityHandler = {
  table: (db) => db.registrations,
  async apply(db, mutation) {
    const registered = argsOf(mutation, 'person.register');
    if (!registered) return;
    const { uid, first_name, last_name, phone_number, country, location } = registered;
    await db.registrations.put({
      uid,
      first_name,
      last_name,
      phone_number,
      country,
      ...(location ? { location } : {}),
    });
  },
};

export function personName(p: { first_name: string; last_name: string; email?: string | null }): string {
  return `${p.first_name} ${p.last_name}`.trim() || p.email || '';
}

/** Whether a person matches what the agent typed: names, phone, place or email, in any case. */
export function matches(p: Visitable, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [p.first_name, p.last_name, p.email, p.phone_number, p.location].filter(Boolean).join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}
