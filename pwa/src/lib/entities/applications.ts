// Applications on this device: the local copy the screens read, and the
// changes queued for the server (docs/product.md, Screens and Statuses).
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from '../sync/local-db';
import type { Application } from '../sync/stored';
import type { SurveyStatus } from '../sync/records';
import { enqueue, forget, type EntityHandler } from '../sync/engine';
import type { Answers } from './application-fields';

export type ApplicationStatus = SurveyStatus;

export type { Application };

/** Whom a field agent fills an application for: a listed person, or one registered on this phone. */
export type Applicant = { user_id: number } | { person_uid: string };

/** How applications are kept on the device; registered before the first sync (lib/sync/bootstrap.ts). */
export const surveyEntity: EntityHandler = {
  table: (db) => db.surveys,
  async apply(db, mutation) {
    const uid = mutation.args.uid as string;
    if (mutation.name === 'survey.delete') {
      await db.surveys.delete(uid);
      return;
    }
    const current = (await db.surveys.get(uid)) ?? { uid, created_at: mutation.client_time, status: 'pending' };
    const status = (mutation.args.status as ApplicationStatus | undefined) ?? current.status;
    const { user_id, person_uid } = mutation.args as { user_id?: number; person_uid?: string };
    const applicant = { ...(typeof user_id === 'number' ? { user_id } : {}), ...(person_uid ? { person_uid } : {}) };
    await db.surveys.put({ ...current, ...(mutation.args.answers as object), ...applicant, status });
  },
};

/** Saves an application: a create until the server has it, then edits on top
 * of its version. `applicant`: the person a field agent fills it for. */
export async function saveApplication(
  db: LocalDb,
  uid: string,
  answers: Answers,
  status?: ApplicationStatus,
  applicant?: Applicant,
): Promise<void> {
  const existing = await db.surveys.get(uid);
  const queuedCreate = await db.outbox
    .where('uid')
    .equals(uid)
    .and((e) => e.name === 'survey.create' && e.state !== 'rejected')
    .count();
  const args = { uid, answers, ...(status ? { status } : {}) };
  if (existing?.version === undefined && queuedCreate === 0) {
    await enqueue(db, 'survey.create', {
      ...args,
      status: status ?? 'draft',
      ...applicant,
    });
  } else {
    // Only the answers that differ from this phone's copy: an answer someone
    // else changed meanwhile, left as it was here, keeps their change.
    const before = (existing ?? {}) as Record<string, unknown>;
    const changed = Object.fromEntries(
      Object.entries(answers).filter(
        ([field, value]) => JSON.stringify(before[field] ?? null) !== JSON.stringify(value ?? null),
      ),
    );
    await enqueue(db, 'survey.update', { ...args, answers: changed }, existing?.version);
  }
}

export async function deleteApplication(db: LocalDb, uid: string): Promise<void> {
  const existing = await db.surveys.get(uid);
  if (existing?.version === undefined) {
    // Never reached the server: forget it here, queue nothing.
    await forget(db, db.surveys, uid);
    return;
  }
  await enqueue(db, 'survey.delete', { uid });
}

/** Newest first; `undefined` while loading. */
export function useApplications(db: LocalDb): Application[] | undefined {
  return useLiveQuery(async () => {
    const all = await db.surveys.toArray();
    return all.sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''));
  }, [db]);
}
