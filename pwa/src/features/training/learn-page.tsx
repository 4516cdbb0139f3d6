// The course player (docs/training.md): lessons in order with previous/next, resume
// where the learner stopped, mark complete, quizzes with feedback at once, the
// course downloaded for offline reading, and the certificate once earned. Every
// step is an event queued on the phone and sent through sync.
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { useLocalDb } from '../../lib/sync/provider';
import { useOnline } from '../../lib/use-online';
import { api } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';
import { formatBytes, formatDate } from '../../lib/format';
import { Spinner } from '../../components/spinner';
import { CheckIcon } from '../../components/icons';
import { ConfirmDialog } from '../../components/dialog';
import { useToast } from '../../components/toast';
import type { LocalDb } from '../../lib/sync/local-db';
import {
  ASK_ABOVE_BYTES,
  lessonsOf,
  record,
  resumeLesson,
  useCourse,
  useCourseContent,
  useEnrolment,
  type Course,
  type CourseContent,
  type Enrolment,
  type Lesson,
} from '../../lib/entities/courses';
import {
  certificatePdf,
  downloadCourse,
  fetchContent,
  removeDownload,
  shouldAsk,
} from '../../lib/entities/course-download';
import { CourseNotFound } from './course-parts';
import { LessonText } from './lesson-text';
import { Quiz } from './quiz';
import { usePageHead } from '../../lib/page-head';

export function LearnPage() {
  usePageHead('learn');
  const { t } = useTranslation();
  const { id } = useParams();
  const db = useLocalDb();
  const course = useCourse(db, Number(id));
  const enrolment = useEnrolment(db, course?.uid);
  const stored = useCourseContent(db, course?.uid);
  if (!db || course === undefined || (course && (enrolment === undefined || stored === undefined)))
    return <Spinner label={t('training.loading')} />;
  if (!course) return <CourseNotFound />;
  if (enrolment?.status !== 'active') {
    return (
      <section className="page narrow coming-soon">
        <h1>{course.title}</h1>
        <p>{t(enrolment ? 'training.refunded_closed' : 'training.enrol_first')}</p>
        <Link className="button" to={paths.course(course.id)}>
          {t('training.view_course')}
        </Link>
      </section>
    );
  }
  return <Player db={db} course={course} enrolment={enrolment} stored={stored ?? null} />;
}

function Player({
  db,
  course,
  enrolment,
  stored,
}: {
  db: LocalDb;
  course: Course;
  enrolment: Enrolment;
  stored: CourseContent | null;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const order = lessonsOf(course);
  const [lessonId, setLessonId] = useState(() => resumeLesson(course, enrolment.progress));
  const [fetched, setFetched] = useState<Lesson[] | null>(null);
  const [failed, setFailed] = useState(false);
  const lessons = stored?.lessons ?? fetched;
  useEffect(() => {
    if (stored || fetched || !online) return;
    setFailed(false);
    fetchContent(course).then(
      (content) => setFetched(content.lessons),
      () => setFailed(true),
    );
  }, [course, stored, fetched, online]);
  const lastLesson = enrolment.progress.last_lesson_id;
  useEffect(() => {
    if (lessonId !== undefined && lessonId !== lastLesson) void record(db, course, lessonId, 'viewed');
    // Only a move to another lesson is an event; progress arriving must not record one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lessonId]);
  const index = order.findIndex((l) => l.id === lessonId);
  const outline = order[index];
  const lesson = lessons?.find((l) => l.id === lessonId);
  // A lesson chosen in the outline, or the next one, is shown from its title: on a phone
  // the text is below the outline, the download panel and the rating.
  const lessonRef = useRef<HTMLElement>(null);
  const [moves, setMoves] = useState(0);
  useEffect(() => {
    if (moves === 0) return;
    lessonRef.current?.scrollIntoView({ block: 'start' });
    lessonRef.current?.focus({ preventScroll: true });
  }, [moves]);
  const open = (id: number | undefined) => {
    setLessonId(id);
    setMoves((n) => n + 1);
  };
  const go = (next: number) => open(order[next]?.id);
  return (
    <article className="page learn-page">
      <nav className="breadcrumb" aria-label={t('market.breadcrumb')}>
        <Link to={paths.course(course.id)}>{course.title}</Link>
      </nav>
      <h1>{course.title}</h1>
      <div className="learn-progress">
        <progress max={100} value={enrolment.progress.percent} aria-labelledby="progress-label" />
        <span id="progress-label">{t('training.progress', { percent: enrolment.progress.percent })}</span>
      </div>
      <CertificateCard course={course} enrolment={enrolment} />
      <div className="learn-layout">
        <nav className="card lesson-nav" aria-label={t('training.lessons')}>
          {course.modules.map((m, mi) => (
            <div key={m.id}>
              <h2>{t('training.module_title', { number: mi + 1, title: m.title })}</h2>
              <ol>
                {m.lessons.map((l) => (
                  <li key={l.id}>
                    <button
                      type="button"
                      className="link-button"
                      aria-current={l.id === lessonId ? 'step' : undefined}
                      onClick={() => open(l.id)}
                    >
                      {enrolment.progress.completed.includes(l.id) && (
                        <span className="done" aria-label={t('training.done')}>
                          <CheckIcon />
                        </span>
                      )}{' '}
                      {l.title}
                    </button>
                  </li>
                ))}
              </ol>
            </div>
          ))}
          <DownloadPanel db={db} course={course} stored={stored} />
          <RateCourse course={course} />
        </nav>
        <section ref={lessonRef} tabIndex={-1} className="card lesson" aria-labelledby="lesson-title">
          {outline && (
            <>
              <p className="muted">{t('training.lesson_of', { number: index + 1, total: order.length })}</p>
              <h2 id="lesson-title">{outline.title}</h2>
            </>
          )}
          {!lesson ? (
            failed || !online ? (
              <p role="alert">{t(online ? 'training.content_failed' : 'training.offline_not_downloaded')}</p>
            ) : (
              <Spinner label={t('training.loading')} />
            )
          ) : lesson.kind === 'reading' ? (
            <>
              <LessonText body={lesson.body} />
              {enrolment.progress.completed.includes(lesson.id) ? (
                <p className="badge green">{t('training.completed')}</p>
              ) : (
                <button
                  type="button"
                  className="button"
                  onClick={() => void record(db, course, lesson.id, 'completed')}
                >
                  {t('training.mark_complete')}
                </button>
              )}
            </>
          ) : (
            <Quiz
              key={lesson.id}
              lesson={lesson}
              result={enrolment.progress.quizzes[lesson.id]}
              onAttempt={(answers) => void record(db, course, lesson.id, 'quiz', answers)}
            />
          )}
          <div className="actions lesson-steps">
            <button type="button" className="button secondary" disabled={index <= 0} onClick={() => go(index - 1)}>
              {t('training.previous')}
            </button>
            <button
              type="button"
              className="button secondary"
              disabled={index >= order.length - 1}
              onClick={() => go(index + 1)}
            >
              {t('training.next')}
            </button>
          </div>
        </section>
      </div>
    </article>
  );
}

function DownloadPanel({ db, course, stored }: { db: LocalDb; course: Course; stored: CourseContent | null }) {
  const { t } = useTranslation();
  const toast = useToast();
  const online = useOnline();
  const [share, setShare] = useState<number | null>(null);
  const [asking, setAsking] = useState<'download' | 'remove' | null>(null);
  const start = () => {
    setAsking(null);
    setShare(0);
    downloadCourse(db, course, setShare).then(
      () => {
        setShare(null);
        toast('success', t('training.downloaded_toast'));
      },
      () => {
        setShare(null);
        toast('error', t('training.download_failed'));
      },
    );
  };
  return (
    <div className="download-panel">
      {stored ? (
        <>
          <p>
            <CheckIcon /> {t('training.downloaded', { size: formatBytes(stored.bytes) })}
          </p>
          <button type="button" className="button secondary small" onClick={() => setAsking('remove')}>
            {t('training.remove_download')}
          </button>
        </>
      ) : share !== null ? (
        <div>
          <progress max={1} value={share} aria-label={t('training.downloading')} />
          <span role="status">{t('training.downloading_percent', { percent: Math.round(share * 100) })}</span>
        </div>
      ) : (
        <button
          type="button"
          className="button small"
          disabled={!online}
          onClick={() => (shouldAsk(course.download_bytes, ASK_ABOVE_BYTES) ? setAsking('download') : start())}
        >
          {t('training.download', { size: formatBytes(course.download_bytes) })}
        </button>
      )}
      <ConfirmDialog
        open={asking === 'download'}
        title={t('training.download_confirm_title')}
        confirmLabel={t('training.download_confirm')}
        cancelLabel={t('common.cancel')}
        onConfirm={start}
        onCancel={() => setAsking(null)}
      >
        <p>{t('training.download_confirm_body', { size: formatBytes(course.download_bytes) })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'remove'}
        title={t('training.remove_title')}
        confirmLabel={t('training.remove_download')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          setAsking(null);
          void removeDownload(db, course.uid);
        }}
        onCancel={() => setAsking(null)}
      >
        <p>{t('training.remove_body')}</p>
      </ConfirmDialog>
    </div>
  );
}

function CertificateCard({ course, enrolment }: { course: Course; enrolment: Enrolment }) {
  const { t } = useTranslation();
  const toast = useToast();
  const certificate = enrolment.certificate;
  if (!course.certificate || enrolment.progress.percent < 100) return null;
  if (!certificate) {
    return (
      <p className="card notice" role="status">
        {t('training.certificate_pending')}
      </p>
    );
  }
  const open = () =>
    certificatePdf(`${certificate.pdf_url}?lang=${currentLanguage()}`).then(
      (url) => window.open(url, '_blank', 'noopener'),
      () => toast('error', t('training.certificate_failed')),
    );
  return (
    <section className="card certificate-card" aria-labelledby="certificate-title">
      <h2 id="certificate-title">{t('training.certificate_earned')}</h2>
      <p>{t('training.certificate_line', { date: formatDate(certificate.issued_at), code: certificate.code })}</p>
      <div className="actions">
        <button type="button" className="button" onClick={() => void open()}>
          {t('training.certificate_pdf')}
        </button>
        <Link className="button secondary" to={paths.certificate(certificate.code)}>
          {t('training.certificate_verify')}
        </Link>
      </div>
    </section>
  );
}

function RateCourse({ course }: { course: Course }) {
  const { t } = useTranslation();
  const toast = useToast();
  const online = useOnline();
  const [rated, setRated] = useState<number | null>(null);
  const rate = (rating: number) =>
    api(`/courses/${course.id}/rating`, { method: 'PUT', json: { rating } }).then(
      () => {
        setRated(rating);
        toast('success', t('training.rated'));
      },
      () => toast('error', t('training.rating_failed')),
    );
  return (
    <fieldset className="rate-course" disabled={!online}>
      <legend>{t('training.rate')}</legend>
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          className="star"
          aria-pressed={rated !== null && n <= rated}
          aria-label={t('training.stars', { count: n })}
          onClick={() => void rate(n)}
        >
          {rated !== null && n <= rated ? '★' : '☆'}
        </button>
      ))}
    </fieldset>
  );
}
