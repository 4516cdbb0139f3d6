// A quiz lesson: choose an answer for each question, then see at once which were
// right and why. The attempt (the answers, not a score) is queued for the server,
// which grades it again.
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { grade, PASS_MARK, rightNeeded, type Lesson, type QuizResult } from '../../lib/entities/courses';

export function Quiz({
  lesson,
  result,
  onAttempt,
}: {
  lesson: Lesson;
  result: QuizResult | undefined;
  onAttempt(answers: number[]): void;
}) {
  const { t } = useTranslation();
  const [answers, setAnswers] = useState<(number | null)[]>(() => lesson.questions.map(() => null));
  const [submitted, setSubmitted] = useState(false);
  const [missing, setMissing] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const first = answers.findIndex((a) => a === null);
    if (first >= 0) {
      setMissing(true);
      form.current?.querySelector<HTMLInputElement>(`input[name="q${first}"]`)?.focus();
      return;
    }
    setMissing(false);
    setSubmitted(true);
    onAttempt(answers as number[]);
  };
  const score = submitted ? grade(lesson.questions, answers as number[]) : null;
  return (
    <form ref={form} className="quiz" onSubmit={submit} noValidate>
      <p className="muted">
        {t('training.quiz_intro', {
          count: rightNeeded(lesson.questions.length),
          total: lesson.questions.length,
          mark: PASS_MARK,
        })}
      </p>
      {result && !submitted && (
        <p className={result.passed ? 'badge green' : 'badge yellow'}>
          {t(result.passed ? 'training.quiz_passed_before' : 'training.quiz_best', { score: result.best })}
        </p>
      )}
      {lesson.questions.map((q, qi) => (
        <fieldset key={qi} className="question">
          <legend>
            {qi + 1}. {q.prompt}
          </legend>
          {q.choices.map((choice, ci) => {
            const chosen = answers[qi] === ci;
            const mark = submitted && (ci === q.answer ? 'right' : chosen ? 'wrong' : undefined);
            return (
              <label key={ci} className={`choice${mark ? ` ${mark}` : ''}`}>
                <input
                  type="radio"
                  name={`q${qi}`}
                  checked={chosen}
                  disabled={submitted}
                  onChange={() => setAnswers((all) => all.map((a, i) => (i === qi ? ci : a)))}
                />{' '}
                {choice}
                {mark === 'right' && <span className="visually-hidden"> {t('training.right_answer')}</span>}
              </label>
            );
          })}
          {submitted && (
            <p className={answers[qi] === q.answer ? 'feedback right' : 'feedback wrong'}>
              {answers[qi] === q.answer ? t('training.correct') : t('training.incorrect')} {q.explanation}
            </p>
          )}
        </fieldset>
      ))}
      {missing && (
        <p role="alert" className="error">
          {t('training.answer_all')}
        </p>
      )}
      {score === null ? (
        <button type="submit" className="button">
          {t('training.check_answers')}
        </button>
      ) : (
        <div role="status" className="quiz-result">
          <p>
            <strong>
              {t(score >= PASS_MARK ? 'training.quiz_passed' : 'training.quiz_failed', {
                score,
                mark: PASS_MARK,
                right: lesson.questions.filter((q, i) => q.answer === answers[i]).length,
                needed: rightNeeded(lesson.questions.length),
                total: lesson.questions.length,
              })}
            </strong>
          </p>
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              setSubmitted(false);
              setAnswers(lesson.questions.map(() => null));
            }}
          >
            {t('training.try_again')}
          </button>
        </div>
      )}
    </form>
  );
}
