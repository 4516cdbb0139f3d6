// What a field worker records on this phone, with or without a signal, and sends once
// (an agent's market prices, a manager's weigh-in): the form's state, and the list of
// records kept on the phone with where each stands (waiting, sent, or refused and why,
// with what was typed kept to correct and send again).
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSend } from './form';
import { errorKey, fieldProblems, refusalText } from '../lib/error-text';
import type { ChangeState } from '../lib/entities/recorded';

/**
 * A record's form: the values typed, each field's problem (the server's, or the form's
 * own codes placed by `fieldOf`, else on `fallback`), saved or not, and the refused
 * record being typed again (`fixing`: it goes once the new one is saved).
 */
export function useRecordForm<Field extends string, Values extends Record<Field, string>>(
  fields: readonly Field[],
  fieldOf: Record<string, Field>,
  fallback: Field,
  initial: () => Values,
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(initial);
  const [saved, setSaved] = useState(false);
  const [fixing, setFixing] = useState<string | null>(null);
  const sending = useFormSend();
  const { problem } = sending;
  const local = problem && 'codes' in problem ? problem.codes : [];
  const invalid: Record<string, string> = {
    ...fieldProblems(problem, t, fields),
    ...Object.fromEntries(local.map((code) => [fieldOf[code] ?? fallback, t(errorKey(code))])),
  };
  const set = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setSaved(false);
    setValues((current) => ({ ...current, [field]: event.target.value }));
  };
  /** Fills the form with a refused record to correct it, and shows the form. */
  const fix = (uid: string, typed: Values) => {
    setFixing(uid);
    setSaved(false);
    setValues(typed);
    sending.form.current?.scrollIntoView({ block: 'start' });
  };
  return { ...sending, values, setValues, set, invalid, saved, setSaved, fixing, setFixing, fix };
}

/** The records kept on this phone, newest first, each with where its change stands. */
export function RecordedList<T extends { uid: string; change?: ChangeState }>({
  id,
  title,
  none,
  records,
  describe,
  onFix,
  onForget,
}: {
  id: string;
  title: string;
  none: string;
  records: T[] | undefined;
  /** The record in a line, and a line of detail under it. */
  describe: (record: NoInfer<T>) => { line: ReactNode; detail: ReactNode };
  onFix: (record: NoInfer<T>) => void;
  onForget: (record: NoInfer<T>) => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {records === undefined ? null : records.length === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        <ul className="list">
          {records.map((record) => {
            const { line, detail } = describe(record);
            return (
              <li key={record.uid} className="list-row">
                <div>
                  <strong>{line}</strong>
                  <p className="muted">{detail}</p>
                  {typeof record.change === 'object' && (
                    <p className="sync-note refused" role="alert">
                      {t('recorded.refused')} {refusalText(record.change.result, t)}
                    </p>
                  )}
                </div>
                {record.change === 'waiting' ? (
                  <span className="badge yellow">{t('recorded.waiting')}</span>
                ) : typeof record.change === 'object' ? (
                  <span className="actions">
                    <button type="button" className="button small" onClick={() => onFix(record)}>
                      {t('recorded.fix')}
                    </button>
                    <button type="button" className="button secondary small" onClick={() => onForget(record)}>
                      {t('recorded.forget')}
                    </button>
                  </span>
                ) : (
                  <span className="badge green">{t('recorded.sent')}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
