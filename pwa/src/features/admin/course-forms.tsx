// The admin's course forms (docs/training.md): a course's fields with its cover
// picture, and a lesson (a reading's text with pictures, or a quiz's questions).
// A refused save shows the server's reasons and keeps what was typed.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import { usePictureUpload } from './use-picture-upload';
import { COURSE_CATEGORIES, LEVELS, type Course, type Lesson, type Question } from '../../lib/entities/courses';
import { Modal } from '../../components/dialog';
import { ErrorBox, ImagePicker, SelectField, TextField } from '../../components/form';
import { useToast } from '../../components/toast';

export interface AdminCourse extends Course {
  published: boolean;
  cover_image: string | null;
  completed: number;
  completion_rate: number;
}

/** A course as the admin API answers it: with every lesson's text and questions. */
export interface Detail {
  course: AdminCourse;
  lessons: Lesson[];
}

const LANGUAGES = ['en', 'fr', 'sw'] as const;

export function CourseForm({ course, onSaved }: { course: AdminCourse | null; onSaved(detail: Detail): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const upload = usePictureUpload();
  const [fields, setFields] = useState(() => ({
    title: course?.title ?? '',
    description: course?.description ?? '',
    category: course?.category ?? 'farming',
    level: course?.level ?? 'beginner',
    language: course?.language ?? 'en',
    instructor_name: course?.instructor.name ?? '',
    instructor_title: course?.instructor.title ?? '',
    instructor_bio: course?.instructor.bio ?? '',
    price: String(course?.price ?? 0),
    certificate: course?.certificate ?? true,
    outcomes: (course?.outcomes ?? []).join('\n'),
    requirements: (course?.requirements ?? []).join('\n'),
    tags: (course?.tags ?? []).join(', '),
    cover_image: course?.cover_image ?? '',
  }));
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set =
    (key: keyof typeof fields) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      setFields((f) => ({ ...f, [key]: e.target.value }));
  const lines = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const json = {
      ...fields,
      outcomes: lines(fields.outcomes),
      requirements: lines(fields.requirements),
      tags: fields.tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    };
    const request = course
      ? api<Detail>(`/admin/courses/${course.id}`, { method: 'PATCH', json })
      : api<Detail>('/admin/courses', { method: 'POST', json });
    request.then(
      (saved) => {
        setProblem(null);
        setBusy(false);
        toast('success', t('admin_courses.saved'));
        onSaved(saved);
      },
      (caught: unknown) => {
        setProblem(caught);
        setBusy(false);
      },
    );
  };
  const pickCover = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) upload(file).then((hash) => setFields((f) => ({ ...f, cover_image: hash })), setProblem);
  };
  return (
    <form className="card form course-form" onSubmit={submit} noValidate>
      {problem !== null && <ErrorBox messages={errorMessages(problem, t, 'admin_courses.save_failed')} />}
      <TextField
        label={t('admin_courses.fields.title')}
        value={fields.title}
        onChange={set('title')}
        required
        maxLength={120}
      />
      <label className="field">
        <span>{t('admin_courses.fields.description')}</span>
        <textarea rows={4} value={fields.description} onChange={set('description')} maxLength={4000} />
      </label>
      <SelectField label={t('admin_courses.fields.category')} value={fields.category} onChange={set('category')}>
        {COURSE_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {t(`training.category.${c}`)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('admin_courses.fields.level')} value={fields.level} onChange={set('level')}>
        {LEVELS.map((l) => (
          <option key={l} value={l}>
            {t(`training.level.${l}`)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('admin_courses.fields.language')} value={fields.language} onChange={set('language')}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`training.languages.${l}`)}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('admin_courses.fields.instructor_name')}
        value={fields.instructor_name}
        onChange={set('instructor_name')}
      />
      <TextField
        label={t('admin_courses.fields.instructor_title')}
        value={fields.instructor_title}
        onChange={set('instructor_title')}
      />
      <label className="field">
        <span>{t('admin_courses.fields.instructor_bio')}</span>
        <textarea rows={2} value={fields.instructor_bio} onChange={set('instructor_bio')} maxLength={1000} />
      </label>
      <TextField
        label={t('admin_courses.fields.price')}
        inputMode="decimal"
        value={fields.price}
        onChange={set('price')}
      />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={fields.certificate}
          onChange={(e) => setFields((f) => ({ ...f, certificate: e.target.checked }))}
        />
        <span>{t('admin_courses.fields.certificate')}</span>
      </label>
      <label className="field">
        <span>{t('admin_courses.fields.outcomes')}</span>
        <textarea rows={3} value={fields.outcomes} onChange={set('outcomes')} />
      </label>
      <label className="field">
        <span>{t('admin_courses.fields.requirements')}</span>
        <textarea rows={2} value={fields.requirements} onChange={set('requirements')} />
      </label>
      <TextField label={t('admin_courses.fields.tags')} value={fields.tags} onChange={set('tags')} />
      <ImagePicker
        label={t('admin_courses.fields.cover')}
        buttonLabel={t('admin_courses.choose_picture')}
        fileName={fields.cover_image ? t('admin_courses.picture_ready') : null}
        onChange={pickCover}
      />
      <button type="submit" className="button" disabled={busy}>
        {t(course ? 'admin_courses.save' : 'admin_courses.create')}
      </button>
    </form>
  );
}

const emptyQuestion = (): Question => ({ prompt: '', choices: ['', ''], answer: 0, explanation: '' });

export function LessonForm({
  module,
  lesson,
  onSaved,
  onClose,
}: {
  module: number;
  lesson: Lesson | null;
  onSaved(detail: Detail): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const upload = usePictureUpload();
  const [title, setTitle] = useState(lesson?.title ?? '');
  const [kind, setKind] = useState<'reading' | 'quiz'>(lesson?.kind ?? 'reading');
  const [minutes, setMinutes] = useState(String(lesson?.minutes ?? 5));
  const [body, setBody] = useState(lesson?.body ?? '');
  const [questions, setQuestions] = useState<Question[]>(
    lesson?.questions.length ? lesson.questions : [emptyQuestion()],
  );
  const [problem, setProblem] = useState<unknown>(null);
  const change = (index: number, patch: Partial<Question>) =>
    setQuestions((all) => all.map((q, i) => (i === index ? { ...q, ...patch } : q)));
  const save = () => {
    const json = {
      title,
      kind,
      minutes: Number(minutes),
      body: kind === 'reading' ? body : '',
      questions: kind === 'quiz' ? questions : [],
    };
    const request = lesson
      ? api<Detail>(`/admin/lessons/${lesson.id}`, { method: 'PUT', json })
      : api<Detail>(`/admin/modules/${module}/lessons`, { method: 'POST', json });
    request.then(onSaved, setProblem);
  };
  const addPicture = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) upload(file).then((hash) => setBody((b) => `${b.trimEnd()}\n![${file.name}](${hash})\n`), setProblem);
  };
  return (
    <Modal
      title={t(lesson ? 'admin_courses.edit_lesson' : 'admin_courses.add_lesson')}
      closeLabel={t('common.cancel')}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={save}>
          {t('admin_courses.save')}
        </button>
      }
    >
      {problem !== null && <ErrorBox messages={errorMessages(problem, t, 'admin_courses.save_failed')} />}
      <TextField label={t('admin_courses.fields.title')} value={title} onChange={(e) => setTitle(e.target.value)} />
      <SelectField
        label={t('admin_courses.fields.kind')}
        value={kind}
        onChange={(e) => setKind(e.target.value as 'reading' | 'quiz')}
      >
        <option value="reading">{t('admin_courses.kinds.reading')}</option>
        <option value="quiz">{t('admin_courses.kinds.quiz')}</option>
      </SelectField>
      <TextField
        label={t('admin_courses.fields.minutes')}
        inputMode="numeric"
        value={minutes}
        onChange={(e) => setMinutes(e.target.value)}
      />
      {kind === 'reading' ? (
        <>
          <label className="field">
            <span>{t('admin_courses.fields.body')}</span>
            <textarea rows={10} value={body} onChange={(e) => setBody(e.target.value)} />
          </label>
          <p className="hint">{t('admin_courses.markup_hint')}</p>
          <ImagePicker
            label={t('admin_courses.insert_picture')}
            buttonLabel={t('admin_courses.choose_picture')}
            fileName={null}
            onChange={addPicture}
          />
        </>
      ) : (
        <>
          {questions.map((q, qi) => (
            <fieldset key={qi} className="question">
              <legend>{t('admin_courses.question', { number: qi + 1 })}</legend>
              <TextField
                label={t('admin_courses.fields.prompt')}
                value={q.prompt}
                onChange={(e) => change(qi, { prompt: e.target.value })}
              />
              <label className="field">
                <span>{t('admin_courses.fields.choices')}</span>
                <textarea
                  rows={3}
                  value={q.choices.join('\n')}
                  onChange={(e) => change(qi, { choices: e.target.value.split('\n') })}
                />
              </label>
              <SelectField
                label={t('admin_courses.fields.answer')}
                value={String(q.answer)}
                onChange={(e) => change(qi, { answer: Number(e.target.value) })}
              >
                {q.choices.map((choice, ci) => (
                  <option key={ci} value={ci}>
                    {choice || t('admin_courses.choice', { number: ci + 1 })}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={t('admin_courses.fields.explanation')}
                value={q.explanation}
                onChange={(e) => change(qi, { explanation: e.target.value })}
              />
              <button
                type="button"
                className="button secondary small"
                disabled={questions.length === 1}
                onClick={() => setQuestions((all) => all.filter((_, i) => i !== qi))}
              >
                {t('admin_courses.remove_question')}
              </button>
            </fieldset>
          ))}
          <button
            type="button"
            className="button secondary small"
            onClick={() => setQuestions((all) => [...all, emptyQuestion()])}
          >
            {t('admin_courses.add_question')}
          </button>
        </>
      )}
    </Modal>
  );
}
