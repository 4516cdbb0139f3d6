// The admin's Courses section (docs/training.md): every course with its learners and
// completion rate; create, edit, publish, delete; modules and lessons added, edited,
// moved and removed (the forms are in course-forms.tsx); a paid course's payments and
// refunds (course-purchases.tsx). Online (the admin API).
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import type { Lesson, LessonOutline } from '../../lib/entities/courses';
import { ConfirmDialog } from '../../components/dialog';
import { TextField } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { CourseForm, LessonForm, type AdminCourse, type Detail } from './course-forms';
import { CoursePurchases } from './course-purchases';

export function AdminCourses() {
  const { t } = useTranslation();
  const toast = useToast();
  const [courses, setCourses] = useState<AdminCourse[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminCourse | null>(null);
  const [payments, setPayments] = useState<AdminCourse | null>(null);
  const load = useCallback(() => {
    api<{ data: AdminCourse[] }>('/admin/courses').then(
      (answer) => (setCourses(answer.data), setError(null)),
      setError,
    );
  }, []);
  useEffect(load, [load]);

  if (editing !== null) {
    return <CourseEditor id={editing} onOpen={setEditing} onClose={() => (setEditing(null), load())} />;
  }
  if (payments) return <CoursePurchases course={payments} onClose={() => (setPayments(null), load())} />;
  if (error && !courses) {
    return (
      <LoadFailed
        title={t('admin_courses.title')}
        error={error}
        fallbackKey="admin_courses.load_failed"
        onRetry={load}
      />
    );
  }
  if (!courses) return <Spinner label={t('common.loading')} />;
  const publish = (course: AdminCourse, published: boolean) =>
    api(`/admin/courses/${course.id}`, { method: 'PATCH', json: { published } }).then(load, (caught: unknown) =>
      toast('error', errorMessages(caught, t, 'admin_courses.save_failed')[0]!),
    );
  return (
    <section className="admin-courses" aria-labelledby="courses-title">
      <div className="section-head">
        <h2 id="courses-title">{t('admin_courses.title')}</h2>
        <button type="button" className="button" onClick={() => setEditing('new')}>
          {t('admin_courses.new')}
        </button>
      </div>
      {courses.length === 0 ? (
        <p className="card coming-soon">{t('admin_courses.none')}</p>
      ) : (
        <ul className="cards">
          {courses.map((c) => (
            <li key={c.id} className="card">
              <h3>{c.title}</h3>
              <p>
                <span className={c.published ? 'badge green' : 'badge grey'}>
                  {t(c.published ? 'admin_courses.published' : 'admin_courses.draft')}
                </span>{' '}
                <span className="badge blue">{t(`training.languages.${c.language}`)}</span>
              </p>
              <p className="muted">
                {t('training.lesson_count', { count: c.lessons })} ·{' '}
                {t('training.enrolled_count', { count: c.enrolled })} ·{' '}
                {t('admin_courses.completion', { rate: c.completion_rate })}
              </p>
              <div className="actions">
                <button type="button" className="button small" onClick={() => setEditing(c.id)}>
                  {t('admin_courses.edit')}
                </button>
                <button type="button" className="button secondary small" onClick={() => void publish(c, !c.published)}>
                  {t(c.published ? 'admin_courses.unpublish' : 'admin_courses.publish')}
                </button>
                {c.price > 0 && (
                  <button type="button" className="button secondary small" onClick={() => setPayments(c)}>
                    {t('admin_courses.purchases')}
                  </button>
                )}
                <button type="button" className="button secondary small" onClick={() => setDeleting(c)}>
                  {t('admin_courses.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin_courses.delete_title')}
        confirmLabel={t('admin_courses.delete')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          const gone = deleting;
          setDeleting(null);
          if (gone)
            void api(`/admin/courses/${gone.id}`, { method: 'DELETE' }).then(load, (caught: unknown) =>
              toast('error', errorMessages(caught, t, 'admin_courses.save_failed')[0]!),
            );
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>{t('admin_courses.delete_body', { title: deleting?.title ?? '' })}</p>
      </ConfirmDialog>
    </section>
  );
}

function CourseEditor({ id, onOpen, onClose }: { id: number | 'new'; onOpen(id: number): void; onClose(): void }) {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (id !== 'new') api<Detail>(`/admin/courses/${id}`).then(setDetail, setError);
  }, [id]);
  if (id !== 'new' && !detail) {
    return error ? (
      <LoadFailed
        title={t('admin_courses.title')}
        error={error}
        fallbackKey="admin_courses.load_failed"
        onRetry={onClose}
      />
    ) : (
      <Spinner label={t('common.loading')} />
    );
  }
  return (
    <section className="admin-course-editor" aria-labelledby="editor-title">
      <div className="section-head">
        <h2 id="editor-title">{detail ? detail.course.title : t('admin_courses.new')}</h2>
        <button type="button" className="button secondary" onClick={onClose}>
          {t('admin_courses.back')}
        </button>
      </div>
      <CourseForm
        course={detail?.course ?? null}
        onSaved={(saved) => (detail ? setDetail(saved) : onOpen(saved.course.id))}
      />
      {detail && <ModulesEditor detail={detail} onChange={setDetail} />}
    </section>
  );
}

function ModulesEditor({ detail, onChange }: { detail: Detail; onChange(detail: Detail): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [title, setTitle] = useState('');
  const [lesson, setLesson] = useState<{ module: number; lesson: Lesson | null } | null>(null);
  const modules = detail.course.modules;
  const run = (request: Promise<Detail>) =>
    request.then(onChange, (caught: unknown) =>
      toast('error', errorMessages(caught, t, 'admin_courses.save_failed')[0]!),
    );
  const move = (moduleIndex: number, from: number, to: number) => {
    const order = modules.map((m) => ({ id: m.id, lessons: m.lessons.map((l) => l.id) }));
    const list = order[moduleIndex]!.lessons;
    [list[from], list[to]] = [list[to]!, list[from]!];
    void run(api<Detail>(`/admin/courses/${detail.course.id}/order`, { method: 'PUT', json: { modules: order } }));
  };
  return (
    <section className="card" aria-labelledby="modules-edit-title">
      <h3 id="modules-edit-title">{t('training.modules')}</h3>
      {modules.map((m, mi) => (
        <div key={m.id} className="module-edit">
          <h4>{t('training.module_title', { number: mi + 1, title: m.title })}</h4>
          <ol>
            {m.lessons.map((l: LessonOutline, li) => (
              <li key={l.id}>
                {l.title} <span className="muted">({t(`admin_courses.kinds.${l.kind}`)})</span>
                <span className="actions">
                  <button
                    type="button"
                    className="button secondary small"
                    aria-label={t('admin_courses.move_up', { title: l.title })}
                    disabled={li === 0}
                    onClick={() => move(mi, li, li - 1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button secondary small"
                    aria-label={t('admin_courses.move_down', { title: l.title })}
                    disabled={li === m.lessons.length - 1}
                    onClick={() => move(mi, li, li + 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button secondary small"
                    onClick={() =>
                      setLesson({ module: m.id, lesson: detail.lessons.find((x) => x.id === l.id) ?? null })
                    }
                  >
                    {t('admin_courses.edit')}
                  </button>
                  <button
                    type="button"
                    className="button secondary small"
                    onClick={() => void run(api<Detail>(`/admin/lessons/${l.id}`, { method: 'DELETE' }))}
                  >
                    {t('admin_courses.delete')}
                  </button>
                </span>
              </li>
            ))}
          </ol>
          <div className="actions">
            <button type="button" className="button small" onClick={() => setLesson({ module: m.id, lesson: null })}>
              {t('admin_courses.add_lesson')}
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => void run(api<Detail>(`/admin/modules/${m.id}`, { method: 'DELETE' }))}
            >
              {t('admin_courses.delete_module')}
            </button>
          </div>
        </div>
      ))}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(api<Detail>(`/admin/courses/${detail.course.id}/modules`, { method: 'POST', json: { title } })).then(
            () => setTitle(''),
          );
        }}
      >
        <TextField label={t('admin_courses.module_name')} value={title} onChange={(e) => setTitle(e.target.value)} />
        <button type="submit" className="button secondary">
          {t('admin_courses.add_module')}
        </button>
      </form>
      {lesson && (
        <LessonForm
          module={lesson.module}
          lesson={lesson.lesson}
          onSaved={(saved) => (onChange(saved), setLesson(null))}
          onClose={() => setLesson(null)}
        />
      )}
    </section>
  );
}
