import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb } from '../sync/local-db';
import {
  applyEvent,
  courseEntity,
  enrol,
  enrolmentEntity,
  filterCourses,
  grade,
  record,
  resumeLesson,
  rightNeeded,
  type Course,
  type CourseContent,
  type Progress,
  type Question,
} from './courses';
import { registerEntity } from '../sync/engine';

registerEntity('course', courseEntity);
registerEntity('enrolment', enrolmentEntity);
afterEach(() => vi.unstubAllGlobals());

const course = (id: number, over: Partial<Course> = {}): Course =>
  ({
    uid: `c${id}`,
    id,
    title: `Course ${id}`,
    description: 'For smallholders',
    category: 'farming',
    level: 'beginner',
    language: 'en',
    instructor: { name: 'Amani Bisimwa', title: '', bio: '', photo_url: null },
    price: 0,
    rating: 0,
    reviews: 0,
    minutes: 30,
    modules: [
      {
        id: 1,
        title: 'Start',
        minutes: 30,
        lessons: [
          { id: 11, title: 'Soil', kind: 'reading', minutes: 10 },
          { id: 12, title: 'Quiz', kind: 'quiz', minutes: 10 },
          { id: 13, title: 'Rows', kind: 'reading', minutes: 10 },
        ],
      },
    ],
    ...over,
  }) as Course;

const questions: Question[] = [
  { prompt: 'a', choices: ['x', 'y'], answer: 1, explanation: '' },
  { prompt: 'b', choices: ['x', 'y', 'z'], answer: 2, explanation: '' },
];

describe('the course catalogue on the device', () => {
  it('searches title, description and instructor without accents, filters and sorts', () => {
    const all = [
      course(1, { title: 'Vendre au marché', category: 'marketing', minutes: 50, price: 0 }),
      course(2, { title: 'Beans', level: 'advanced', minutes: 20, price: 10 }),
      course(3, { title: 'Coffee', instructor: { name: 'Espérance', title: '', bio: '', photo_url: null } }),
    ];
    const ids = (filters: Partial<Parameters<typeof filterCourses>[1]>) =>
      filterCourses(all, { q: '', category: 'all', level: 'all', sort: 'title', ...filters }).map((c) => c.id);
    expect(ids({ q: 'MARCHE' })).toEqual([1]);
    expect(ids({ q: 'esperance' })).toEqual([3]);
    expect(ids({ category: 'marketing' })).toEqual([1]);
    expect(ids({ level: 'advanced' })).toEqual([2]);
    expect(ids({ sort: 'duration' })).toEqual([2, 3, 1]);
    expect(ids({ sort: 'price_desc' })).toEqual([2, 3, 1]);
  });
});

describe('progress on the device', () => {
  it('grades like the server and counts passed quizzes and completed readings in course order', () => {
    expect(grade(questions, [1, 2])).toBe(100);
    expect(grade(questions, [1, 0])).toBe(50);
    // Said before the quiz: with three questions the 70 % pass mark means all three.
    expect([1, 2, 3, 4, 5, 10].map(rightNeeded)).toEqual([1, 2, 3, 3, 4, 7]);
    const order = course(1).modules[0]!.lessons;
    let progress: Progress = { completed: [], quizzes: {}, last_lesson_id: null, percent: 0 };
    progress = applyEvent(progress, order, { lesson_id: 13, kind: 'completed' });
    progress = applyEvent(progress, order, { lesson_id: 12, kind: 'quiz', score: 50 });
    expect(progress.completed).toEqual([13]);
    progress = applyEvent(progress, order, { lesson_id: 12, kind: 'quiz', score: 100 });
    progress = applyEvent(progress, order, { lesson_id: 12, kind: 'completed' });
    expect(progress.completed).toEqual([12, 13]);
    expect(progress.quizzes[12]).toEqual({ best: 100, attempts: 2, passed: true });
    expect(progress.percent).toBe(66);
    expect(resumeLesson(course(1), progress)).toBe(12);
    expect(resumeLesson(course(1), { ...progress, last_lesson_id: null })).toBe(11);
  });

  it('an enrolment and a quiz passed offline show at once, graded from the downloaded lessons', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    const db = new LocalDb(`courses-${Math.random()}`);
    await db.courses.put(course(1));
    const content: CourseContent = {
      uid: 'c1',
      version: 1,
      lessons: [{ id: 12, module_id: 1, title: 'Quiz', kind: 'quiz', minutes: 10, body: '', questions }],
      pictures: [],
      bytes: 100,
      saved_at: '',
    };
    await db.courseContent.put(content);
    await enrol(db, course(1));
    await record(db, course(1), 11, 'completed');
    await record(db, course(1), 12, 'quiz', [1, 2]);
    const enrolment = (await db.enrolments.get('c1'))!;
    expect(enrolment.progress.completed).toEqual([11, 12]);
    expect(enrolment.progress.percent).toBe(66);
    const queued = await db.outbox.toArray();
    expect(queued.map((m) => m.name)).toEqual(['enrolment.create', 'enrolment.progress', 'enrolment.progress']);
    expect(queued[2]!.args).toMatchObject({ uid: 'c1', lesson_id: 12, kind: 'quiz', answers: [1, 2] });
    expect(queued[2]!.args).not.toHaveProperty('score');
  });
});
