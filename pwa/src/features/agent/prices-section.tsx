// The field agent's market prices (docs/prices.md): what a crop sells for at the
// market they stand in, recorded with or without a signal and sent exactly once; the
// prices recorded on this phone with where each stands (waiting, sent, or refused
// and why).
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CropOptions, MarketOptions } from '../../components/price-options';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { RecordedList, useRecordForm } from '../../components/recorded';
import { problemMessages } from '../../lib/error-text';
import { formatDay, localToday } from '../../lib/format';
import type { LocalDb } from '../../lib/sync/local-db';
import {
  CURRENCIES,
  PRICE_UNITS,
  forgetPrice,
  recordPrice,
  refreshMarkets,
  useRecordedPrices,
  useSavedMarkets,
} from '../../lib/entities/prices';

const FIELDS = ['market', 'crop', 'unit', 'price', 'currency', 'observed_on', 'note'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

const today = localToday;

/** The form's checks, in the server's order, as error codes (the server checks them all again). */
export function checkPrice(values: Values): string[] {
  const codes: string[] = [];
  if (!values.market) codes.push('market_unknown');
  if (!values.crop) codes.push('crop_unknown');
  const price = Number(values.price.trim().replace(',', '.'));
  if (!/^\d+([.,]\d{1,2})?$/.test(values.price.trim()) || !(price > 0)) codes.push('market_price_invalid');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.observed_on)) codes.push('date_invalid');
  else if (values.observed_on > today()) codes.push('date_future');
  else if (values.observed_on < '2000-01-01') codes.push('date_too_old');
  return codes;
}

const FIELD_OF: Record<string, (typeof FIELDS)[number]> = {
  market_unknown: 'market',
  crop_unknown: 'crop',
  market_price_invalid: 'price',
  date_invalid: 'observed_on',
  date_future: 'observed_on',
  date_too_old: 'observed_on',
};

export function PricesSection({ db }: { db: LocalDb }) {
  const { t } = useTranslation();
  const markets = useSavedMarkets(db);
  const recorded = useRecordedPrices(db);
  const [marketsFailed, setMarketsFailed] = useState(false);
  const { values, setValues, set, invalid, saved, setSaved, fixing, setFixing, fix, problem, busy, form, send } =
    useRecordForm(FIELDS, FIELD_OF, 'price', (): Values => ({
      market: '',
      crop: '',
      unit: 'kg',
      price: '',
      currency: 'USD',
      observed_on: today(),
      note: '',
    }));

  useEffect(() => {
    refreshMarkets(db).then(
      () => setMarketsFailed(false),
      () => setMarketsFailed(true),
    );
  }, [db]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const price = {
      market: Number(values.market),
      crop: values.crop,
      unit: values.unit,
      price: values.price.trim().replace(',', '.'),
      currency: values.currency,
      observed_on: values.observed_on,
      ...(values.note.trim() ? { note: values.note.trim() } : {}),
    };
    if (await send(checkPrice(values), () => recordPrice(db, price))) {
      if (fixing) await forgetPrice(db, fixing);
      setFixing(null);
      setSaved(true);
      // The next price is often the same market and day: keep them, clear the rest.
      setValues((current) => ({ ...current, crop: '', price: '', note: '' }));
    }
  };

  const marketName = (id: number) => markets?.find((m) => m.id === id)?.name ?? `#${id}`;
  return (
    <div className="stack">
      <form ref={form} className="card form" onSubmit={submit} noValidate aria-labelledby="record-price">
        <h2 id="record-price">{t('agent.prices.title')}</h2>
        <p className="muted">{t('agent.prices.intro')}</p>
        <ErrorBox messages={problem ? problemMessages(problem, t, 'agent.prices.failed') : []} />
        {saved && (
          <p className="notice success" role="status">
            {t('agent.prices.saved')}
          </p>
        )}
        {markets !== undefined && markets.length === 0 && (
          <p className="notice" role="status">
            {t(marketsFailed ? 'agent.prices.no_markets_offline' : 'agent.prices.loading_markets')}
          </p>
        )}
        <SelectField
          label={t('prices.market')}
          required
          value={values.market}
          error={invalid.market}
          onChange={set('market')}
        >
          <MarketOptions markets={markets ?? []} blank={t('agent.prices.choose_market')} />
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
          <SelectField label={t('agent.prices.unit')} value={values.unit} error={invalid.unit} onChange={set('unit')}>
            {PRICE_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {t(`price_units.${unit}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="field-row two">
          <TextField
            label={t('agent.prices.price')}
            required
            inputMode="decimal"
            value={values.price}
            error={invalid.price}
            onChange={set('price')}
          />
          <SelectField
            label={t('agent.prices.currency')}
            value={values.currency}
            error={invalid.currency}
            onChange={set('currency')}
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {t(`agent.prices.currencies.${c}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <TextField
          label={t('agent.prices.day')}
          type="date"
          required
          max={today()}
          value={values.observed_on}
          error={invalid.observed_on}
          onChange={set('observed_on')}
        />
        <TextField
          label={t('agent.prices.note')}
          hint={t('agent.prices.note_hint')}
          maxLength={200}
          value={values.note}
          error={invalid.note}
          onChange={set('note')}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {t('agent.prices.save')}
          </button>
        </div>
      </form>
      <RecordedList
        id="recorded-prices"
        title={t('agent.prices.recorded')}
        none={t('agent.prices.none')}
        records={recorded}
        describe={(p) => ({
          line: (
            <>
              {t(`crops.${p.crop}`, { defaultValue: p.crop })}: {p.price} {p.currency} /{' '}
              {t(`price_units.${p.unit}`, { defaultValue: p.unit })}
            </>
          ),
          detail: `${marketName(p.market)} · ${formatDay(p.observed_on)}`,
        })}
        onFix={(p) =>
          fix(p.uid, {
            market: String(p.market),
            crop: p.crop,
            unit: p.unit,
            price: p.price,
            currency: p.currency,
            observed_on: p.observed_on,
            note: p.note ?? '',
          })
        }
        onForget={(p) => void forgetPrice(db, p.uid)}
      />
    </div>
  );
}
