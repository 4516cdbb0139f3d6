// A manager's lots (docs/cooperatives.md, Lots): put a lot on sale from what is held and
// not yet in a lot (a crop and grade of the stock), collected at the store on the days
// said (and delivered too, for a cost, when the cooperative does) and see each lot's sales (the orders
// for them are moved above, as a farmer's: cooperative-section.tsx). Making a lot needs a
// signal: the stock it is drawn from is the server's; a refusal keeps what was typed, with the reasons.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField, TextField, useFormSend } from '../../components/form';
import { errorMessages, fieldProblems, problemMessages } from '../../lib/error-text';
import { formatMoney, STORE_DAYS, WEEKDAYS, weekDays, type Weekday } from '../../lib/format';
import { changeLot, makeLot, type Cooperative, type Lot, type Stock } from '../../lib/entities/cooperatives';

const FIELDS = ['stock', 'kilograms', 'price', 'min_order', 'pickup', 'delivery_cost'] as const;
type Values = Record<(typeof FIELDS)[number], string> & { pickup_days: readonly Weekday[]; delivers: boolean };

/** The form's own checks, as error codes (the server checks them all again). */
export function checkLot(values: Values, available: number): string[] {
  const codes: string[] = [];
  if (!values.stock) codes.push('crop_unknown');
  const kg = Number(values.kilograms);
  if (!/^\d+$/.test(values.kilograms.trim()) || kg < 1) codes.push('lot_size_invalid');
  else if (kg > available) codes.push('more_than_stock');
  const price = values.price.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(price) || !(Number(price) > 0)) codes.push('market_price_invalid');
  const min = Number(values.min_order);
  if (!/^\d+$/.test(values.min_order.trim()) || min < 1 || (kg >= 1 && min > kg)) codes.push('lot_min_order_invalid');
  if (!values.pickup.trim()) codes.push('pickup_required');
  if (values.pickup_days.length === 0) codes.push('pickup_days_invalid');
  const cost = values.delivery_cost.trim().replace(',', '.');
  if (values.delivers && !/^\d+(\.\d{1,2})?$/.test(cost)) codes.push('delivery_cost_invalid');
  return codes;
}

export function CooperativeLots({
  cooperative,
  stock,
  lots,
  onMade,
}: {
  cooperative: Cooperative;
  stock: Stock[];
  lots: Lot[];
  onMade: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const blank = (): Values => ({
    stock: '',
    kilograms: '',
    price: '',
    min_order: '1',
    pickup: '',
    pickup_days: STORE_DAYS,
    delivers: false,
    delivery_cost: '',
  });
  const [values, setValues] = useState<Values>(blank);
  const [uid, setUid] = useState(() => crypto.randomUUID());
  const [made, setMade] = useState(false);
  const { problem, busy, form, send } = useFormSend();
  const open = stock.filter((s) => Number(s.available_kilograms) >= 1);
  const chosen = open.find((s) => `${s.crop}/${s.grade}` === values.stock);
  const available = Math.floor(Number(chosen?.available_kilograms ?? 0));
  const set = (field: (typeof FIELDS)[number]) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  const errors = fieldProblems(problem, t, [...FIELDS, 'pickup_days', 'crop', 'grade']);
  const toggleDay = (day: Weekday) =>
    setValues((v) => ({
      ...v,
      pickup_days: v.pickup_days.includes(day) ? v.pickup_days.filter((d) => d !== day) : [...v.pickup_days, day],
    }));
  const cropName = (crop: string) => t(`crops.${crop}`, { defaultValue: crop });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMade(false);
    const sent = await send(checkLot(values, available), () =>
      makeLot(cooperative.id, {
        uid,
        crop: chosen!.crop,
        grade: chosen!.grade,
        kilograms: Number(values.kilograms),
        price: values.price.trim().replace(',', '.'),
        min_order: Number(values.min_order),
        pickup: values.pickup.trim(),
        pickup_days: WEEKDAYS.filter((day) => values.pickup_days.includes(day)),
        ...(values.delivers && { delivery_cost: values.delivery_cost.trim().replace(',', '.') }),
      }),
    );
    if (sent) {
      setValues(blank());
      setUid(crypto.randomUUID());
      setMade(true);
      await onMade();
    }
  };

  return (
    <div className="stack">
      <form ref={form} className="card form" onSubmit={(e) => void submit(e)} noValidate>
        <h3>{t('cooperative.lots.make', { coop: cooperative.name })}</h3>
        {open.length === 0 ? (
          <p className="muted">{t('cooperative.lots.nothing_held')}</p>
        ) : (
          <>
            <SelectField
              label={t('cooperative.lots.stock')}
              value={values.stock}
              onChange={set('stock')}
              error={errors.stock ?? errors.crop}
            >
              <option value="">{t('cooperative.lots.choose')}</option>
              {open.map((s) => (
                <option key={`${s.crop}/${s.grade}`} value={`${s.crop}/${s.grade}`}>
                  {t('cooperative.lots.held', {
                    crop: cropName(s.crop),
                    grade: s.grade,
                    kilograms: s.available_kilograms,
                  })}
                </option>
              ))}
            </SelectField>
            <TextField
              label={t('cooperative.lots.kilograms')}
              inputMode="numeric"
              value={values.kilograms}
              onChange={set('kilograms')}
              hint={chosen ? t('cooperative.lots.at_most', { kilograms: available }) : undefined}
              error={errors.kilograms}
              required
            />
            <TextField
              label={t('cooperative.lots.price')}
              inputMode="decimal"
              value={values.price}
              onChange={set('price')}
              error={errors.price}
              required
            />
            <TextField
              label={t('cooperative.lots.min_order')}
              inputMode="numeric"
              value={values.min_order}
              onChange={set('min_order')}
              error={errors.min_order}
            />
            <TextField
              label={t('cooperative.lots.pickup')}
              value={values.pickup}
              onChange={set('pickup')}
              maxLength={60}
              error={errors.pickup}
              required
            />
            <fieldset className="choices week-days" aria-invalid={errors.pickup_days ? true : undefined}>
              <legend>{t('cooperative.lots.days')}</legend>
              {WEEKDAYS.map((day) => (
                <label key={day} className="checkbox">
                  <input type="checkbox" checked={values.pickup_days.includes(day)} onChange={() => toggleDay(day)} />
                  {t(`weekdays.${day}`)}
                </label>
              ))}
              {errors.pickup_days && <p className="field-error">{errors.pickup_days}</p>}
            </fieldset>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={values.delivers}
                onChange={(event) => setValues((v) => ({ ...v, delivers: event.target.checked }))}
              />
              {t('cooperative.lots.delivers')}
            </label>
            {values.delivers && (
              <TextField
                label={t('cooperative.lots.delivery_cost')}
                inputMode="decimal"
                value={values.delivery_cost}
                onChange={set('delivery_cost')}
                hint={t('cooperative.lots.delivery_cost_hint')}
                error={errors.delivery_cost}
                required
              />
            )}
            <ErrorBox messages={problemMessages(problem, t, 'cooperative.action_failed')} />
            {made && (
              <p className="notice" role="status">
                {t('cooperative.lots.made')}
              </p>
            )}
            <button type="submit" className="button" disabled={busy}>
              {busy ? t('common.saving') : t('cooperative.lots.put_on_sale')}
            </button>
          </>
        )}
      </form>
      {lots.length > 0 && (
        <ul className="list" aria-label={t('cooperative.lots.title')}>
          {lots.map((lot) => (
            <LotRow key={lot.id} lot={lot} cooperativeId={cooperative.id} onChanged={onMade} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** A lot with its sales; while on sale, a new price or taking it off sale. */
function LotRow({
  lot,
  cooperativeId,
  onChanged,
}: {
  lot: Lot;
  cooperativeId: number;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [price, setPrice] = useState('');
  const [problem, setProblem] = useState<unknown>(null);
  const cropName = t(`crops.${lot.crop}`, { defaultValue: lot.crop });
  const act = (change: { price?: string; on_sale?: false }) =>
    changeLot(cooperativeId, lot.id, change).then(
      () =>
        onChanged().then(() => {
          setPrice('');
          setProblem(null);
        }),
      (error: unknown) => setProblem(error),
    );
  return (
    <li className="list-row column">
      <strong>
        {t('cooperative.lots.row', { number: lot.number, crop: cropName, grade: lot.grade, kilograms: lot.kilograms })}
      </strong>
      <p className="muted">
        {t('cooperative.lots.sales', {
          on_sale: lot.on_sale_kilograms,
          sold: lot.sold_kilograms,
          price: formatMoney(lot.price),
        })}
        {lot.withdrawn && ` ${t('cooperative.lots.off_sale')}`}
      </p>
      <p className="muted">
        {t('cooperative.lot_pickup', { place: lot.pickup, days: weekDays(lot.pickup_days, t) })}
        {lot.delivery_cost !== null && ` ${t('cooperative.lot_delivers', { cost: formatMoney(lot.delivery_cost) })}`}
      </p>
      {!lot.withdrawn && (
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void act({ price: price.trim().replace(',', '.') });
          }}
        >
          <ErrorBox messages={problem ? errorMessages(problem, t, 'cooperative.action_failed') : []} />
          <TextField
            label={t('cooperative.lots.new_price')}
            inputMode="decimal"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
          />
          <span className="actions">
            <button type="submit" className="button small" disabled={!price.trim()}>
              {t('cooperative.lots.save_price')}
            </button>
            <button type="button" className="button secondary small" onClick={() => void act({ on_sale: false })}>
              {t('cooperative.lots.take_off')}
            </button>
          </span>
        </form>
      )}
    </li>
  );
}
