// The dashboard's Training section (farmers and buyers): the person's courses with
// their progress and certificates, from the phone, so it opens offline.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import type { LocalDb } from '../../lib/sync/local-db';
import { useCourses, useEnrolments } from '../../lib/entities/courses';
import { Spinner } from '../../components/spinner';

export function TrainingSection({ db }: { db: LocalDb }) {
  const { t } = useTranslation();
  const enrolments = useEnrolments(db);
  const courses = useCourses(db);
  if (!enrolments || !courses) return <Spinner label={t('training.loading')} />;
  const mine = enrolments
    .map((e) => ({ enrolment: e, course: courses.find((c) => c.uid === e.uid) }))
    .filter((m) => m.course !== undefined);
  return (
    <section className="training-section" aria-labelledby="my-courses">
      <h2 id="my-courses">{t('training.my_courses')}</h2>
      {mine.length === 0 ? (
        <div className="card coming-soon">
          <p>{t('training.no_courses_yet')}</p>
          <Link className="button" to={paths.training}>
            {t('training.browse')}
          </Link>
        </div>
      ) : (
        <ul className="cards">
          {mine.map(({ enrolment, course }) => (
            <li key={enrolment.uid} className="card">
              <h3>{course!.title}</h3>
              <progress max={100} value={enrolment.progress.percent} aria-label={course!.title} />{' '}
              <span>{t('training.progress', { percent: enrolment.progress.percent })}</span>
              {enrolment.certificate && (
                <p>
                  {t('training.certificate_code', { code: enrolment.certificate.code })}{' '}
                  <Link to={paths.certificate(enrolment.certificate.code)}>{t('training.certificate_verify')}</Link>
                </p>
              )}
              <div className="actions">
                {enrolment.status === 'active' ? (
                  <Link className="button small" to={paths.learn(course!.id)}>
                    {enrolment.progress.percent === 0 ? t('training.start') : t('training.continue')}
                  </Link>
                ) : (
                  <>
                    <span className="badge grey">{t('training.refunded')}</span>
                    <Link className="button secondary small" to={paths.course(course!.id)}>
                      {t('training.view_course')}
                    </Link>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {/* The other courses are a tap away, not only when none is started. */}
      {mine.length > 0 && (
        <p>
          <Link className="button secondary" to={paths.training}>
            {t('training.browse')}
          </Link>
        </p>
      )}
    </section>
  );
}
