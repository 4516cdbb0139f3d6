// A cooperative manager's weigh-in at the collection point (docs/cooperatives.md): who
// brought what, weighed with or without a signal and sent once; the deliveries weighed
// on this phone with where each stands (waiting, sent, or refused and why, with what was
// typed kept to correct and send again).
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CropOptions } from '../../components/price-options';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { RecordedList, useRecordForm } from '../../components/recorded';
import { problemMessages } from '../../lib/error-text';
import { formatDay, localToday } from '../../lib/format';
import { keepPhoto, usePhotoUrl } from '../../lib/sync/photos';
import type { LocalDb } from '../../lib/sync/local-db';
import {
  GRADES,
  WEIGH_UNITS,
  forgetWeighed,
  recordDelivery,
  useWeighed,
  type Cooperative,
  type Membership,
} from '../../lib/entities/cooperatives';

const FIELDS = ['cooperative', 'member', 'crop', 'grade', 'quantity', 'unit', 'delivered_on', 'place', 'note'] as const;
/** What the manager typed, and the scale's photo (its hash on the phone, or empty). */
type Values = Record<(typeof FIELDS)[number] | 'photo', string>;

const today = localToday;

/** The form's checks, in the server's order, as error codes (the server checks them all again). */
export function checkDelivery(values: Values): string[] {
  const codes: string[] = [];
  if (!values.member) codes.push('member_required');
  if (!values.crop) codes.push('crop_unknown');
  const quantity = values.quantity.trim().replace(',', '.');
  if (!/^\d+(\.\d)?$/.test(quantity) || !(Number(quantity) > 0)) codes.push('weight_invalid');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.delivered_on)) codes.push('date_invalid');
  else if (values.delivered_on > today()) codes.push('date_future');
  if (!values.place.trim()) codes.push('place_required');
  return codes;
}

const FIELD_OF: Record<string, (typeof FIELDS)[number]> = {
  member_required: 'member',
  crop_unknown: 'crop',
  weight_invalid: 'quantity',
  date_invalid: 'delivered_on',
  date_future: 'delivered_on',
  place_required: 'place',
};

export function WeighIn({
  db,
  cooperatives,
  members,
}: {
  db: LocalDb;
  cooperatives: Cooperative[];
  members: Record<number, Membership[]>;
}) {
  const { t } = useTranslation();
  const weighed = useWeighed(db);
  const blank = (cooperative: string): Values => ({
    cooperative,
    member: '',
    crop: '',
    grade: 'A',
    quantity: '',
    unit: 'kg',
    delivered_on: today(),
    place: '',
    note: '',
    photo: '',
  });
  const { values, setValues, set, invalid, saved, setSaved, fixing, setFixing, fix, problem, busy, form, send } =
    useRecordForm(FIELDS, FIELD_OF, 'quantity', () => blank(String(cooperatives[0]?.id ?? '')));
  const people = (members[Number(values.cooperative)] ?? []).filter((m) => m.status === 'active' && m.farmer);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const delivery = {
      cooperative: Number(values.cooperative),
      member: Number(values.member),
      crop: values.crop,
      grade: values.grade,
      quantity: values.quantity.trim().replace(',', '.'),
      unit: values.unit,
      delivered_on: values.delivered_on,
      place: values.place.trim(),
      ...(values.note.trim() ? { note: values.note.trim() } : {}),
      ...(values.photo ? { photo: values.photo } : {}),
    };
    if (await send(checkDelivery(values), () => recordDelivery(db, delivery))) {
      if (fixing) await forgetWeighed(db, fixing);
      setFixing(null);
      setSaved(true);
      // The next member comes to the same point the same day: keep them, clear the rest.
      setValues((current) => ({
        ...blank(current.cooperative),
        place: current.place,
        delivered_on: current.delivered_on,
      }));
    }
  };

  const nameOf = (cooperative: number, member: number) => {
    const m = members[cooperative]?.find((p) => p.user_id === member);
    return m ? `${m.first_name} ${m.last_name}` : `#${member}`;
  };
  return (
    <div className="stack">
      <form ref={form} className="card form" onSubmit={submit} noValidate aria-labelledby="weigh-in">
        <h2 id="weigh-in">{t('cooperative.weigh.title')}</h2>
        <p className="muted">{t('cooperative.weigh.intro')}</p>
        <ErrorBox messages={problem ? problemMessages(problem, t, 'cooperative.weigh.failed') : []} />
        {saved && (
          <p className="notice success" role="status">
            {t('cooperative.weigh.saved')}
          </p>
        )}
        {cooperatives.length > 1 && (
          <SelectField
            label={t('cooperative.weigh.cooperative')}
            value={values.cooperative}
            onChange={(event) => setValues(blank(event.target.value))}
          >
            {cooperatives.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
        )}
        <SelectField
          label={t('cooperative.weigh.member')}
          required
          value={values.member}
          error={invalid.member}
          onChange={set('member')}
        >
          <option value="">{t('cooperative.weigh.choose_member')}</option>
          {people.map((m) => (
            <option key={m.user_id} value={m.user_id}>
              {m.first_name} {m.last_name}
              {m.phone_number ? ` (${m.phone_number})` : ''}
            </option>
          ))}
        </SelectField>
        <div className="field-row two">
          <SelectField
            label={t('prices.crop')}
            required
            value={values.crop}
            error={invalid.crop}
            onChange={set('crop')}
          >
            <CropOptions blank={t('prices.choose_crop')} />
          </SelectField>
          <SelectField label={t('cooperative.grade')} value={values.grade} onChange={set('grade')}>
            {GRADES.map((g) => (
              <option key={g} value={g}>
                {t('cooperative.grade_value', { grade: g })}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="field-row two">
          <TextField
            label={t('cooperative.weigh.quantity')}
            required
            inputMode="decimal"
            value={values.quantity}
            error={invalid.quantity}
            onChange={set('quantity')}
          />
          <SelectField label={t('cooperative.weigh.unit')} value={values.unit} onChange={set('unit')}>
            {WEIGH_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {t(`price_units.${unit}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="field-row two">
          <TextField
            label={t('cooperative.weigh.day')}
            type="date"
            required
            max={today()}
            value={values.delivered_on}
            error={invalid.delivered_on}
            onChange={set('delivered_on')}
          />
          <TextField
            label={t('cooperative.weigh.place')}
            required
            maxLength={60}
            value={values.place}
            error={invalid.place}
            onChange={set('place')}
          />
        </div>
        <ScalePhoto
          db={db}
          hash={values.photo}
          onChange={(photo) => {
            setSaved(false);
            setValues((current) => ({ ...current, photo }));
          }}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {t('cooperative.weigh.save')}
          </button>
        </div>
      </form>
      <RecordedList
        id="weighed"
        title={t('cooperative.weigh.recorded')}
        none={t('cooperative.weigh.none')}
        records={weighed}
        describe={(d) => ({
          line: (
            <>
              {nameOf(d.cooperative, d.member)}: {d.quantity} {t(`price_units.${d.unit}`, { defaultValue: d.unit })}{' '}
              {t(`crops.${d.crop}`, { defaultValue: d.crop })} ({t('cooperative.grade_value', { grade: d.grade })})
            </>
          ),
          detail: `${d.place} · ${formatDay(d.delivered_on)}`,
        })}
        onFix={(d) =>
          fix(d.uid, {
            cooperative: String(d.cooperative),
            member: String(d.member),
            crop: d.crop,
            grade: d.grade,
            quantity: d.quantity,
            unit: d.unit,
            delivered_on: d.delivered_on,
            place: d.place,
            note: d.note ?? '',
            photo: d.photo ?? '',
          })
        }
        onForget={(d) => void forgetWeighed(db, d.uid)}
      />
    </div>
  );
}

/** The scale's photo, optional: taken or picked, resized and kept on the phone, sent
 * with the entry when there is a signal. */
function ScalePhoto({ db, hash, onChange }: { db: LocalDb; hash: string; onChange: (hash: string) => void }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const url = usePhotoUrl(db, hash || undefined, 320);
  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      setFailed(false);
      onChange(await keepPhoto(db, file));
    } catch {
      setFailed(true);
    }
  };
  return (
    <div className="field scale-photo">
      <label>
        {t('cooperative.weigh.photo')}
        <input type="file" accept="image/*" capture="environment" onChange={(event) => void pick(event)} />
      </label>
      {failed && <p className="field-error">{t('errors.image_invalid')}</p>}
      {hash && url && (
        <div className="list-row">
          <img src={url} alt={t('cooperative.weigh.photo')} width={96} height={72} />
          <button type="button" className="button secondary small" onClick={() => onChange('')}>
            {t('cooperative.weigh.remove_photo')}
          </button>
        </div>
      )}
    </div>
  );
}
