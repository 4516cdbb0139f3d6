// Training (docs/training.md): search, sort, category and level chips, course cards.
// It reads the courses on the device, so it filters as the person types and works
// with no signal once loaded.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useCatalogueDb } from '../../lib/sync/provider';
import { useSyncedList } from '../../lib/entities/catalogue';
import { SelectField, TextField } from '../../components/form';
import { LoadingCards } from '../../components/loading-cards';
import { Stars, useDataSaver } from '../../components/product-parts';
import {
  COURSE_CATEGORIES,
  COURSE_SORTS,
  LEVELS,
  filterCourses,
  readCourses,
  type Course,
  type CourseFilters,
  type CourseSort,
} from '../../lib/entities/courses';
import { CourseBadges, CourseFacts, CoursePicture, CoursePrice } from './course-parts';
import { usePageHead } from '../../lib/page-head';
import { filtersFromUrl } from '../../lib/list-filters';

const EMPTY: CourseFilters = { q: '', category: 'all', level: 'all', sort: 'title' };

export function TrainingPage() {
  usePageHead('training');
  const { t } = useTranslation();
  const { user } = useSession();
  const db = useCatalogueDb();
  const { items: courses, loaded } = useSyncedList(db, readCourses);
  const [params] = useSearchParams();
  const [filters, setFilters] = useState(() =>
    filtersFromUrl(params, EMPTY, { category: COURSE_CATEGORIES, level: LEVELS, sort: COURSE_SORTS }),
  );
  const [saveData] = useDataSaver();
  const set = <K extends keyof CourseFilters>(key: K, value: CourseFilters[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));

  if (!courses || loaded === undefined) {
    const head = (
      <>
        <h1>{t('training.title')}</h1>
        <p className="lead">{t('training.intro')}</p>
      </>
    );
    return <LoadingCards className="training" label={t('training.loading')} head={head} />;
  }
  if (!loaded && courses.length === 0) {
    return (
      <section className="page narrow coming-soon">
        <h1>{t('training.title')}</h1>
        <p>{t('training.never_loaded')}</p>
      </section>
    );
  }
  const shown = filterCourses(courses, filters);
  return (
    <section className="page marketplace training" aria-labelledby="training-title">
      <h1 id="training-title">{t('training.title')}</h1>
      <p className="lead">{t('training.intro')}</p>
      <div className="market-tools">
        <TextField
          label={t('training.search')}
          type="search"
          placeholder={t('training.search_placeholder')}
          value={filters.q}
          onChange={(e) => set('q', e.target.value)}
        />
        <SelectField
          label={t('training.sort')}
          value={filters.sort}
          onChange={(e) => set('sort', e.target.value as CourseSort)}
        >
          {COURSE_SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`training.sorts.${s}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="chips" role="group" aria-label={t('training.categories')}>
        {(['all', ...COURSE_CATEGORIES] as const).map((c) => (
          <button
            key={c}
            type="button"
            className="chip"
            aria-pressed={filters.category === c}
            onClick={() => set('category', c)}
          >
            {t(`training.category.${c}`)}
          </button>
        ))}
      </div>
      <div className="chips" role="group" aria-label={t('training.levels')}>
        {(['all', ...LEVELS] as const).map((l) => (
          <button
            key={l}
            type="button"
            className="chip"
            aria-pressed={filters.level === l}
            onClick={() => set('level', l)}
          >
            {t(`training.level.${l}`)}
          </button>
        ))}
      </div>
      <p role="status">{t('training.showing', { count: shown.length, total: courses.length })}</p>
      {shown.length === 0 ? (
        <div className="card coming-soon">
          <h2>{t('training.empty_title')}</h2>
          <p>{t('training.empty_body')}</p>
          <button type="button" className="button" onClick={() => setFilters(EMPTY)}>
            {t('training.clear_filters')}
          </button>
        </div>
      ) : (
        <ul className="product-grid">
          {shown.map((c, index) => (
            <CourseCard key={c.uid} course={c} saveData={saveData} first={index === 0} />
          ))}
        </ul>
      )}
      {!user && (
        <section className="card cta">
          <h2>{t('training.cta_title')}</h2>
          <p>{t('training.cta_body')}</p>
          <Link className="button" to={paths.register}>
            {t('training.cta_button')}
          </Link>
        </section>
      )}
    </section>
  );
}

function CourseCard({ course: c, saveData, first }: { course: Course; saveData: boolean; first: boolean }) {
  const { t } = useTranslation();
  return (
    <li className="card product-card">
      <div className="product-media">
        <CoursePicture course={c} saveData={saveData} priority={first} />
      </div>
      <div className="product-body">
        <CourseBadges course={c} />
        <h2>
          <Link to={paths.course(c.id)}>{c.title}</Link>
        </h2>
        <Stars rating={c.rating} reviews={c.reviews} />
        <p className="muted">{t('training.by', { name: c.instructor.name })}</p>
        <p className="description">{c.description}</p>
        <CourseFacts course={c} />
        <p>
          <CoursePrice course={c} />
        </p>
        <div className="actions">
          <Link className="button small" to={paths.course(c.id)}>
            {t('training.view_course')}
          </Link>
        </div>
      </div>
    </li>
  );
}
