// The people a field agent can visit, kept on the phone: the list is
// downloaded when there is a signal and read from the device when there is not.
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb, LocalPerson } from './local-db';
import { api } from './api';

const UPDATED_KEY = 'people_updated_at';

/** Replaces the saved copy with the server's list, in one transaction. */
/** The active buyers and farmers an agent or admin may fill an application for. */
export const fetchSurveyable = () => api<{ data: LocalPerson[] }>('/agent/people');

export async function refreshPeople(db: LocalDb): Promise<void> {
  const { data } = await fetchSurveyable();
  await db.transaction('rw', db.people, db.meta, async () => {
    await db.people.clear();
    await db.people.bulkPut(data);
    await db.setMeta(UPDATED_KEY, new Date().toISOString());
  });
}

export interface SavedPeople {
  people: LocalPerson[];
  updatedAt: string | undefined;
}

/** By name; `undefined` while loading. */
export function useSavedPeople(db: LocalDb): SavedPeople | undefined {
  return useLiveQuery(async () => {
    const people = await db.people.toArray();
    people.sort((a, b) => `${a.first_name} ${a.last_name}`.localeCompare(`${b.first_name} ${b.last_name}`));
    return { people, updatedAt: await db.getMeta<string>(UPDATED_KEY) };
  }, [db]);
}

export function personName(p: { first_name: string; last_name: string; email: string | null }): string {
  return `${p.first_name} ${p.last_name}`.trim() || p.email || '';
}

/** Whether a person matches what the agent typed: names, phone, place or email, in any case. */
export function matches(p: LocalPerson, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [p.first_name, p.last_name, p.email, p.phone_number, p.location].filter(Boolean).join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}
