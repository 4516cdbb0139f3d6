// Pieces the training pages share: a course's picture, badges and figures.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import type { Course } from '../../lib/entities/courses';
import { formatMinutes, formatMoney } from '../../lib/format';
import { ProductImage } from '../../components/product-parts';
import { PICTURE_WIDTHS } from '../../lib/picture-sizes';

/** `priority`: the page's main or first picture (fetched at once). */
export function CoursePicture(props: { course: Course; large?: boolean; saveData: boolean; priority?: boolean }) {
  const { course, large, saveData, priority } = props;
  const src = (large ? course.image_url : course.thumbnail_url) ?? undefined;
  const [width, height] = large ? [1024, 768] : [320, 240];
  return (
    <ProductImage
      src={src}
      alt=""
      width={width}
      height={height}
      saveData={saveData}
      priority={priority}
      sizes={large ? PICTURE_WIDTHS.course : undefined}
    />
  );
}

export function CourseBadges({ course }: { course: Course }) {
  const { t } = useTranslation();
  return (
    <p className="badges">
      <span className="badge blue">{t(`training.level.${course.level}`)}</span>{' '}
      <span className="badge grey">{t(`training.languages.${course.language}`)}</span>{' '}
      {course.certificate && <span className="badge green">{t('training.certificate_badge')}</span>}
    </p>
  );
}

export function CoursePrice({ course }: { course: Course }) {
  const { t } = useTranslation();
  return <span className="price">{course.price === 0 ? t('training.free') : formatMoney(course.price)}</span>;
}

export function CourseFacts({ course }: { course: Course }) {
  const { t } = useTranslation();
  return (
    <p className="muted course-facts">
      {formatMinutes(course.minutes)} · {t('training.lesson_count', { count: course.lessons })} ·{' '}
      {t('training.enrolled_count', { count: course.enrolled })}
    </p>
  );
}

/** "Course not found", with the way back to the catalogue. */
export function CourseNotFound() {
  const { t } = useTranslation();
  return (
    <section className="page narrow coming-soon">
      <h1>{t('training.not_found')}</h1>
      <Link className="button" to={paths.training}>
        {t('training.back')}
      </Link>
    </section>
  );
}
