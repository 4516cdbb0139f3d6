// Training on this device (docs/training.md): the course catalogue pulled like the
// marketplace, the person's enrolments with progress made offline shown at once,
// and courses downloaded for reading with no signal.
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncedRecord } from './catalogue';
import { fold } from './product-search';
import type { LocalDb } from '../sync/local-db';
import type { Course, CourseContent, Enrolment, Lesson, Question } from '../sync/stored';
import type { Certificate, CourseCategory, LessonOutline, Level, Progress, QuizResult } from '../sync/records';
import { enqueue, newUid, type EntityHandler } from '../sync/engine';

export type { Certificate, CourseCategory, LessonOutline, Level, Progress, QuizResult };
export { COURSE_CATEGORIES, LEVELS } from '../sync/records';
export type CourseSort = 'title' | 'price_asc' | 'price_desc' | 'rating' | 'duration';
export const COURSE_SORTS: readonly CourseSort[] = ['title', 'price_asc', 'price_desc', 'rating', 'duration'];
/** A quiz is passed at this score (percent); the server says the same in each enrolment. */
export const PASS_MARK = 70;
/** Bigger downloads are confirmed first on mobile data or with data saving on. */
export const ASK_ABOVE_BYTES = 10 * 1024 * 1024;

export type { Course, CourseContent, Enrolment, Lesson, Question };

/** Every lesson of a course, in order. */
export function lessonsOf(course: Pick<Course, 'modules'>): LessonOutline[] {
  return course.modules.flatMap((m) => m.lessons);
}

/** The percent of `questions` the answers get right, as the server grades it. */
export function grade(questions: Question[], answers: number[]): number {
  if (questions.length === 0) return 100;
  const right = questions.filter((q, i) => q.answer === answers[i]).length;
  return Math.floor((right * 100) / questions.length);
}

/** How many of `total` answers must be right to reach the pass mark (3 of 3 at 70 %). */
export function rightNeeded(total: number): number {
  let right = 0;
  while (right < total && Math.floor((right * 100) / total) < PASS_MARK) right += 1;
  return right;
}

/** One event applied to progress, as the server derives it (docs/training.md). */
export function applyEvent(
  progress: Progress,
  order: LessonOutline[],
  event: { lesson_id: number; kind: string; score?: number },
): Progress {
  const lesson = order.find((l) => l.id === event.lesson_id);
  if (!lesson) return progress;
  const done = new Set(progress.completed);
  const quizzes = { ...progress.quizzes };
  if (event.kind === 'completed' && lesson.kind === 'reading') done.add(lesson.id);
  if (event.kind === 'quiz' && lesson.kind === 'quiz' && event.score !== undefined) {
    const before = quizzes[lesson.id] ?? { best: 0, attempts: 0, passed: false };
    const best = Math.max(before.best, event.score);
    quizzes[lesson.id] = { best, attempts: before.attempts + 1, passed: best >= PASS_MARK };
    if (best >= PASS_MARK) done.add(lesson.id);
  }
  const completed = order.map((l) => l.id).filter((id) => done.has(id));
  const percent = order.length === 0 ? 0 : Math.floor((completed.length * 100) / order.length);
  return { completed, quizzes, last_lesson_id: lesson.id, percent };
}

const NO_PROGRESS: Progress = { completed: [], quizzes: {}, last_lesson_id: null, percent: 0 };

export const courseEntity: EntityHandler = {
  table: (db) => db.courses,
  // Courses only come from the server.
  apply: async () => undefined,
};

export const enrolmentEntity: EntityHandler = {
  table: (db) => db.enrolments,
  reads: (db) => [db.courses, db.courseContent],
  async apply(db, mutation) {
    const uid = mutation.args.uid as string;
    const current = await db.enrolments.get(uid);
    const enrolment: Enrolment = current ?? {
      uid,
      status: 'active',
      progress: NO_PROGRESS,
      completed_at: null,
      certificate: null,
    };
    if (mutation.name === 'enrolment.progress') {
      const course = await db.courses.get(uid);
      if (!course) return;
      const lessonId = mutation.args.lesson_id as number;
      let score: number | undefined;
      if (mutation.args.kind === 'quiz') {
        const content = await db.courseContent.get(uid);
        const questions = content?.lessons.find((l) => l.id === lessonId)?.questions;
        // Graded again on the server; without the lesson here, it counts once it arrives.
        if (questions) score = grade(questions, mutation.args.answers as number[]);
      }
      enrolment.progress = applyEvent(enrolment.progress, lessonsOf(course), {
        lesson_id: lessonId,
        kind: mutation.args.kind as string,
        score,
      });
    }
    await db.enrolments.put(enrolment);
  },
};

export interface CourseFilters {
  q: string;
  category: CourseCategory | 'all';
  level: Level | 'all';
  sort: CourseSort;
}

/** Courses that match, in the chosen order (search over title, description and instructor). */
export function filterCourses(courses: Course[], filters: CourseFilters): Course[] {
  const words = fold(filters.q).split(/\s+/).filter(Boolean);
  const matches = courses.filter((c) => {
    if (filters.category !== 'all' && c.category !== filters.category) return false;
    if (filters.level !== 'all' && c.level !== filters.level) return false;
    const text = fold(`${c.title} ${c.description} ${c.instructor.name}`);
    return words.every((w) => text.includes(w));
  });
  const byTitle = (a: Course, b: Course) => a.title.localeCompare(b.title);
  const order: Record<CourseSort, (a: Course, b: Course) => number> = {
    title: byTitle,
    price_asc: (a, b) => a.price - b.price || byTitle(a, b),
    price_desc: (a, b) => b.price - a.price || byTitle(a, b),
    rating: (a, b) => b.rating - a.rating || b.reviews - a.reviews || byTitle(a, b),
    duration: (a, b) => a.minutes - b.minutes || byTitle(a, b),
  };
  return matches.sort(order[filters.sort]);
}

export async function readCourses(db: LocalDb): Promise<Course[]> {
  return db.courses.toArray();
}

export function useCourses(db: LocalDb | null): Course[] | undefined {
  return useLiveQuery(async () => (db ? readCourses(db) : undefined), [db]);
}

/** One course by its server id (the `/course/:id` address), as `useSyncedRecord` reads it. */
export function useCourse(db: LocalDb | null, id: number): Course | null | undefined {
  return useSyncedRecord(db, (db) => db.courses.where('id').equals(id).first(), [id]);
}

export function useEnrolment(db: LocalDb | null, uid: string | undefined): Enrolment | null | undefined {
  return useLiveQuery(async () => (db && uid ? ((await db.enrolments.get(uid)) ?? null) : undefined), [db, uid]);
}

export function useEnrolments(db: LocalDb | null): Enrolment[] | undefined {
  return useLiveQuery(async () => (db ? await db.enrolments.toArray() : undefined), [db]);
}

export function useCourseContent(db: LocalDb | null, uid: string | undefined): CourseContent | null | undefined {
  return useLiveQuery(async () => (db && uid ? ((await db.courseContent.get(uid)) ?? null) : undefined), [db, uid]);
}

/** Enrols in a free course, also offline. */
export function enrol(db: LocalDb, course: Course): Promise<void> {
  return enqueue(db, 'enrolment.create', { uid: course.uid });
}

/** Records what the learner did; a quiz attempt carries the chosen answers. */
export function record(
  db: LocalDb,
  course: Course,
  lessonId: number,
  kind: 'viewed' | 'completed' | 'quiz',
  answers?: number[],
): Promise<void> {
  return enqueue(db, 'enrolment.progress', {
    uid: course.uid,
    event_uid: newUid(),
    lesson_id: lessonId,
    kind,
    ...(answers ? { answers } : {}),
  });
}

/** Where a learner picks up: the last lesson opened, else the first not done. */
export function resumeLesson(course: Course, progress: Progress): number | undefined {
  const order = lessonsOf(course);
  if (progress.last_lesson_id !== null && order.some((l) => l.id === progress.last_lesson_id))
    return progress.last_lesson_id;
  return (order.find((l) => !progress.completed.includes(l.id)) ?? order[0])?.id;
}
