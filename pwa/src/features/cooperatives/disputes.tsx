// The disputes a cooperative's members raised (docs/cooperatives.md), for its managers:
// each with the member's words, the entry and its day. A manager corrects the entry (a
// new weigh-in naming it, saved on the phone and sent once, with or without a signal)
// or keeps it as it is, saying why (online: the member is told at once). Either way the
// member hears it by SMS and in the app. What was typed stays when sending fails.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField, TextAreaField, TextField, useFormSend } from '../../components/form';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { formatDate, formatDay } from '../../lib/format';
import type { LocalDb } from '../../lib/sync/local-db';
import {
  GRADES,
  keepDelivery,
  recordDelivery,
  useWeighed,
  type Cooperative,
  type Delivery,
  type WeighedDelivery,
} from '../../lib/entities/cooperatives';

type How = 'correct' | 'keep';

/** A correction of `uid` saved on this phone and not yet accepted (refused ones are fixed in the weigh-in list). */
const correctionWaiting = (weighed: WeighedDelivery[] | undefined, uid: string) =>
  (weighed ?? []).some(
    (w) =>
      w.replaces === uid && (w.change === 'waiting' || (typeof w.change === 'object' && w.change.state !== 'rejected')),
  );

export function OpenDisputes({
  db,
  cooperatives,
  disputes,
  onAnswered,
}: {
  db: LocalDb;
  cooperatives: Cooperative[];
  disputes: Record<number, Delivery[]>;
  onAnswered: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const weighed = useWeighed(db);
  const open = cooperatives.flatMap((c) => disputes[c.id] ?? []);
  if (open.length === 0) return null;
  return (
    <section className="card" aria-labelledby="coop-disputes">
      <h2 id="coop-disputes">{t('cooperative.disputes.title', { count: open.length })}</h2>
      <p className="muted">{t('cooperative.disputes.intro')}</p>
      <ul className="list">
        {open.map((d) => (
          <DisputeRow
            key={d.id}
            db={db}
            delivery={d}
            named={cooperatives.length > 1}
            correcting={correctionWaiting(weighed, d.uid)}
            onAnswered={onAnswered}
          />
        ))}
      </ul>
    </section>
  );
}

/** One dispute, with its own answer form (typing in one does not lose another's). */
function DisputeRow({
  db,
  delivery: d,
  named,
  correcting,
  onAnswered,
}: {
  db: LocalDb;
  delivery: Delivery;
  /** The manager has several cooperatives: each row says which. */
  named: boolean;
  correcting: boolean;
  onAnswered: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [how, setHow] = useState<How | null>(null);
  return (
    <li className="list-row column" data-reference={d.reference}>
      <div className="list-head">
        <strong>
          {d.member_name} · {d.reference}
        </strong>
        {named && <span className="muted">{d.cooperative_name}</span>}
      </div>
      <p>
        {t('cooperative.disputes.entry', {
          kilograms: d.kilograms,
          crop: t(`crops.${d.crop}`, { defaultValue: d.crop }),
          grade: d.grade,
          day: formatDay(d.delivered_on),
          place: d.place,
        })}
      </p>
      {d.dispute && (
        <p className="muted">
          {t('cooperative.disputes.said', {
            time: formatDate(d.dispute.created_at, 'short'),
            reason: d.dispute.reason,
          })}
        </p>
      )}
      {correcting ? (
        <p className="notice" role="status">
          {t('cooperative.disputes.correction_waiting')}
        </p>
      ) : how ? (
        <AnswerForm
          db={db}
          delivery={d}
          how={how}
          onCancel={() => setHow(null)}
          onDone={() => onAnswered().finally(() => setHow(null))}
        />
      ) : (
        <span className="actions">
          {d.in_lot ? (
            <span className="muted">{t('cooperative.disputes.in_lot')}</span>
          ) : (
            <button type="button" className="button small" onClick={() => setHow('correct')}>
              {t('cooperative.disputes.correct')}
            </button>
          )}
          <button type="button" className="button secondary small" onClick={() => setHow('keep')}>
            {t('cooperative.disputes.keep')}
          </button>
        </span>
      )}
    </li>
  );
}

function AnswerForm({
  db,
  delivery,
  how,
  onCancel,
  onDone,
}: {
  db: LocalDb;
  delivery: Delivery;
  how: How;
  onCancel: () => void;
  onDone: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [weight, setWeight] = useState(delivery.kilograms);
  const [grade, setGrade] = useState(delivery.grade);
  const [note, setNote] = useState('');
  const { problem, busy, form, send } = useFormSend();
  const errors = fieldProblems(problem, t, ['weight', 'note']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const kilograms = weight.trim().replace(',', '.');
    const codes = [
      ...(how === 'correct' && !/^\d+(\.\d)?$/.test(kilograms) ? ['weight_invalid'] : []),
      ...(note.trim() ? [] : ['note_required']),
    ];
    const sent = await send(codes, () =>
      how === 'keep'
        ? keepDelivery(delivery.id, note.trim())
        : // A new entry naming the disputed one; 0 kg cancels it.
          recordDelivery(db, {
            cooperative: delivery.cooperative_id,
            member: delivery.member_id,
            crop: delivery.crop,
            grade,
            quantity: kilograms,
            unit: 'kg',
            delivered_on: delivery.delivered_on,
            place: delivery.place,
            replaces: delivery.uid,
            note: note.trim(),
          }),
    );
    if (sent) await onDone();
  };

  return (
    <form ref={form} className="form" onSubmit={(event) => void submit(event)} noValidate>
      <ErrorBox messages={problemMessages(problem, t, 'cooperative.disputes.failed')} />
      {how === 'correct' && (
        <>
          <TextField
            label={t('cooperative.disputes.kilograms')}
            inputMode="decimal"
            value={weight}
            onChange={(e) => setWeight(e.target.value)}
            error={errors.weight}
          />
          <SelectField label={t('cooperative.grade')} value={grade} onChange={(e) => setGrade(e.target.value)}>
            {GRADES.map((g) => (
              <option key={g} value={g}>
                {t('cooperative.grade_value', { grade: g })}
              </option>
            ))}
          </SelectField>
        </>
      )}
      <TextAreaField
        label={t(how === 'correct' ? 'cooperative.disputes.why_correct' : 'cooperative.disputes.why_keep')}
        value={note}
        maxLength={300}
        onChange={(e) => setNote(e.target.value)}
        error={errors.note}
      />
      <span className="actions">
        <button type="submit" className="button small" disabled={busy}>
          {t(how === 'correct' ? 'cooperative.disputes.send_correction' : 'cooperative.disputes.send_keep')}
        </button>
        <button type="button" className="button secondary small" onClick={onCancel}>
          {t('cooperative.cancel')}
        </button>
      </span>
    </form>
  );
}
