// One course (docs/training.md, "Course detail"), from the courses on the device; the
// sidebar enrols in a free course (also offline: the enrolment is queued), pays for a
// paid one (online; the enrolment follows by sync), or continues learning.
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useCatalogueDb, useLocalDb } from '../../lib/sync/provider';
import { Spinner } from '../../components/spinner';
import { PayNow } from '../../components/pay-now';
import { coursePaymentsPath } from '../../lib/payments';
import { Avatar } from '../../components/avatar';
import { Stars, useDataSaver } from '../../components/product-parts';
import { formatMinutes } from '../../lib/format';
import { enrol, useCourse, useEnrolment, type Course, type Enrolment } from '../../lib/entities/courses';
import type { LocalDb } from '../../lib/sync/local-db';
import type { User } from '../../lib/account';
import { CourseBadges, CourseNotFound, CoursePicture, CoursePrice } from './course-parts';

export function CoursePage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const course = useCourse(useCatalogueDb(), Number(id));
  usePageHead('course', course === undefined ? 'loading' : course);
  if (course === undefined) return <Spinner label={t('training.loading')} />;
  if (course === null) return <CourseNotFound />;
  return <CourseDetails course={course} />;
}

function CourseDetails({ course: c }: { course: Course }) {
  const { t } = useTranslation();
  const [saveData] = useDataSaver();
  return (
    <article className="page product-page course-page">
      <nav className="breadcrumb" aria-label={t('market.breadcrumb')}>
        <Link to={paths.home}>{t('training.home')}</Link> › <Link to={paths.training}>{t('training.title')}</Link> ›{' '}
        <span aria-current="page">{c.title}</span>
      </nav>
      <div className="product-layout">
        <div className="course-main">
          <h1>{c.title}</h1>
          <Stars rating={c.rating} reviews={c.reviews} />
          <CourseBadges course={c} />
          <p>{c.description}</p>
          <section className="card instructor" aria-labelledby="instructor-title">
            <h2 id="instructor-title">{t('training.instructor')}</h2>
            <div className="instructor-row">
              <Avatar url={c.instructor.photo_url} size={56} />
              <div>
                <p>
                  <strong>{c.instructor.name}</strong>
                </p>
                <p className="muted">{c.instructor.title}</p>
              </div>
            </div>
            {c.instructor.bio && <p>{c.instructor.bio}</p>}
          </section>
          <dl className="course-stats">
            <div>
              <dt>{t('training.stats.duration')}</dt>
              <dd>{formatMinutes(c.minutes)}</dd>
            </div>
            <div>
              <dt>{t('training.stats.lessons')}</dt>
              <dd>{c.lessons}</dd>
            </div>
            <div>
              <dt>{t('training.stats.enrolled')}</dt>
              <dd>{c.enrolled}</dd>
            </div>
            <div>
              <dt>{t('training.stats.language')}</dt>
              <dd>{t(`training.languages.${c.language}`)}</dd>
            </div>
          </dl>
          <section aria-labelledby="modules-title">
            <h2 id="modules-title">{t('training.modules')}</h2>
            <ol className="module-list">
              {c.modules.map((m) => (
                <li key={m.id}>
                  <strong>{m.title}</strong>{' '}
                  <span className="muted">
                    {t('training.lesson_count', { count: m.lessons.length })} · {formatMinutes(m.minutes)}
                  </span>
                </li>
              ))}
            </ol>
          </section>
          {c.outcomes.length > 0 && (
            <section aria-labelledby="outcomes-title">
              <h2 id="outcomes-title">{t('training.outcomes')}</h2>
              <ul className="checks">
                {c.outcomes.map((o) => (
                  <li key={o}>{o}</li>
                ))}
              </ul>
            </section>
          )}
          {c.requirements.length > 0 && (
            <section aria-labelledby="requirements-title">
              <h2 id="requirements-title">{t('training.requirements')}</h2>
              <ul>
                {c.requirements.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </section>
          )}
          <EnrolBar course={c} />
        </div>
        <aside id="enrolment" className="card course-sidebar" aria-label={t('training.enrolment')}>
          {/* Far below on a phone (the side column comes last): fetched when near, not first. */}
          <CoursePicture course={c} large saveData={saveData} />
          <p>
            <CoursePrice course={c} />
          </p>
          {c.price > 0 && <p className="muted">{t('training.money_back')}</p>}
          <EnrolBox course={c} />
        </aside>
      </div>
    </article>
  );
}

/** On a phone the enrolment column comes after the whole outline, screens down: the price
 * and the way there stay at the bottom of the screen while the course is read. */
function EnrolBar({ course }: { course: Course }) {
  const { t } = useTranslation();
  const enrolment = useEnrolment(useLocalDb(), course.uid);
  if (enrolment?.status === 'active') return null;
  return (
    <div className="enrol-bar mobile-only">
      <CoursePrice course={course} />
      <a className="button small" href="#enrolment">
        {t('training.enrol')}
      </a>
    </div>
  );
}

function EnrolBox({ course }: { course: Course }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const db = useLocalDb();
  const navigate = useNavigate();
  const enrolment = useEnrolment(db, course.uid);
  if (!user) {
    return (
      <div className="actions column">
        <Link className="button" to={paths.login} state={{ from: paths.course(course.id) }}>
          {t('training.login_to_enrol')}
        </Link>
        <Link className="button secondary" to={paths.register}>
          {t('training.create_account')}
        </Link>
      </div>
    );
  }
  if (!db || enrolment === undefined) return <Spinner label={t('training.loading')} />;
  if (enrolment?.status === 'active') {
    return (
      <div className="actions column">
        <p className="badge green">{t('training.enrolled')}</p>
        <Link className="button" to={paths.learn(course.id)}>
          {t('training.continue')}
        </Link>
      </div>
    );
  }
  if (course.price > 0) return <PayForCourse db={db} course={course} enrolment={enrolment} user={user} />;
  return (
    <button
      type="button"
      className="button"
      onClick={() => void enrol(db, course).then(() => navigate(paths.learn(course.id)))}
    >
      {t('training.enrol')}
    </button>
  );
}

/** A paid course: the learner pays by mobile money; the enrolment arrives by sync. */
function PayForCourse({
  db,
  course,
  enrolment,
  user,
}: {
  db: LocalDb;
  course: Course;
  enrolment: Enrolment | null;
  user: User;
}) {
  const { t } = useTranslation();
  return (
    <div className="actions column">
      {enrolment?.status === 'refunded' && <p className="badge grey">{t('training.refunded')}</p>}
      <p className="muted">{t('training.pay_to_enrol')}</p>
      <PayNow
        db={db}
        path={coursePaymentsPath(course.id)}
        country={user.country ?? 'DRC'}
        phone={user.phone_number ?? ''}
        amountCents={Math.round(course.price * 100)}
      />
    </div>
  );
}
