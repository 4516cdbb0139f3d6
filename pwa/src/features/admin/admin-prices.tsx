// The admin's market prices (docs/prices.md): a crop's weekly medians as a chart,
// the observations table with its filters and CSV export, corrections and removals
// (kept with who made them), and the import and markets (admin-price-sources.tsx).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CropOptions, MarketOptions } from '../../components/price-options';
import { ConfirmDialog } from '../../components/dialog';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { Pager } from '../../components/pager';
import { Sparkline } from '../../components/sparkline';
import { useToast } from '../../components/toast';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import { formatDay, numberFormat } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { CURRENCIES, PRICE_UNITS, fetchBoard, formatMicros, type Board, type Market } from '../../lib/entities/prices';
import { FilterBar, ListPending, useAdminList } from './admin-list';
import { PriceSources } from './admin-price-sources';

const SOURCES = ['sale', 'agent', 'import'] as const;

interface Observation {
  id: number;
  source: (typeof SOURCES)[number];
  crop: string;
  market_id: number | null;
  market: string | null;
  territory: string | null;
  place: string | null;
  unit: string;
  price_cents: number;
  currency: string;
  usd_micros: number;
  observed_on: string;
  note: string | null;
  outlier: boolean;
}

interface Filters {
  crop: string;
  market: string;
  source: string;
  from: string;
  to: string;
}

function query(filters: Filters, extra: Record<string, string>): string {
  const params = new URLSearchParams(extra);
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  return params.toString();
}

interface PricesPage {
  observations: { data: Observation[]; total: number; page: number; per_page: number };
  board: { board: Board; markets: Market[] };
}

/** A page of observations matching the filters, and the crop's weekly figures for the chart. */
async function readPrices(filters: Filters, page: number): Promise<PricesPage> {
  const [observations, chart] = await Promise.all([
    api<PricesPage['observations']>(`/admin/prices?${query(filters, { page: String(page) })}`),
    fetchBoard({ crop: filters.crop, market: filters.market }),
  ]);
  return { observations, board: { board: chart.data, markets: chart.markets } };
}

export function AdminPrices() {
  const { t } = useTranslation();
  const twoDecimals = numberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const toast = useToast();
  const list = useAdminList<Filters, PricesPage>(
    { crop: 'bean', market: '', source: '', from: '', to: '' },
    readPrices,
  );
  const { filters, setFilter, setPage, error } = list;
  const load = list.reload;
  const [editing, setEditing] = useState<Observation | null>(null);
  const [removing, setRemoving] = useState<Observation | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<unknown>(null);

  const change = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setRefusal(null);
    try {
      await action();
      toast('success', done);
      setEditing(null);
      setRemoving(null);
      await load();
    } catch (caught) {
      setRefusal(caught);
    } finally {
      setBusy(false);
    }
  };

  if (!list.result) return <ListPending error={error} failedKey="admin.prices.load_failed" retry={() => void load()} />;
  const { observations: result, board } = list.result;
  const markets = board.markets;
  const shown = board.board.crops;

  return (
    <div className="admin-screen">
      <FilterBar exportPath={`/admin/prices/export?${query(filters, { lang: currentLanguage() })}`}>
        <SelectField label={t('prices.crop')} value={filters.crop} onChange={(e) => setFilter('crop', e.target.value)}>
          <CropOptions blank={t('prices.all_crops')} />
        </SelectField>
        <SelectField
          label={t('prices.market')}
          value={filters.market}
          onChange={(e) => setFilter('market', e.target.value)}
        >
          <MarketOptions markets={markets} blank={t('prices.all_markets')} />
        </SelectField>
        <SelectField
          label={t('admin.prices.columns.source')}
          value={filters.source}
          onChange={(e) => setFilter('source', e.target.value)}
        >
          <option value="">{t('admin.prices.all_sources')}</option>
          {SOURCES.map((s) => (
            <option key={s} value={s}>
              {t(`admin.prices.sources.${s}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('admin.prices.from')}
          type="date"
          value={filters.from}
          onChange={(e) => setFilter('from', e.target.value)}
        />
        <TextField
          label={t('admin.prices.to')}
          type="date"
          value={filters.to}
          onChange={(e) => setFilter('to', e.target.value)}
        />
      </FilterBar>
      {/* On a phone the import and the markets come after a page of 50 prices (~11,000 px). */}
      <nav className="jump-links" aria-label={t('admin.prices.tools')}>
        <a className="button secondary small" href="#price-import">
          {t('admin.prices.import_title')}
        </a>
        <a className="button secondary small" href="#price-markets">
          {t('admin.prices.markets_title')}
        </a>
      </nav>
      <section className="card" aria-labelledby="price-chart">
        <h2 id="price-chart">{t('admin.prices.chart_title')}</h2>
        {shown.length === 0 ? (
          <p className="muted">{t('prices.empty_body')}</p>
        ) : (
          shown.map((p) => {
            const crop = t(`crops.${p.crop}`);
            const known = p.series.filter((v): v is number => v !== null);
            return (
              <figure key={`${p.crop}-${p.unit}`} className="price-chart">
                <figcaption>
                  {crop} · {t('prices.per_unit', { unit: t(`price_units.${p.unit}`) })} ·{' '}
                  {formatMicros(p.median_usd_micros)}
                </figcaption>
                {known.length > 0 && (
                  <Sparkline
                    values={p.series}
                    title={t('prices.line_title', { crop })}
                    description={t('prices.line_description', {
                      low: formatMicros(Math.min(...known)),
                      high: formatMicros(Math.max(...known)),
                      count: board.board.weeks.length,
                    })}
                  />
                )}
                <details>
                  <summary>{t('admin.prices.weekly_table')}</summary>
                  <table className="table compact">
                    <tbody>
                      {board.board.weeks.map((week, i) => (
                        <tr key={week}>
                          <th scope="row">{formatDay(week)}</th>
                          <td>{p.series[i] == null ? '—' : formatMicros(p.series[i]!)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </details>
              </figure>
            );
          })
        )}
      </section>
      {error !== null && <ErrorBox messages={errorMessages(error, t, 'admin.prices.load_failed')} />}
      {result.data.length === 0 ? (
        <p className="card empty-note">{t('errors.no_prices')}</p>
      ) : (
        <div className="table-wrap card">
          <table className="data-table stacked">
            <thead>
              <tr>
                {(['crop', 'market', 'price', 'usd', 'source'] as const).map((c) => (
                  <th key={c} scope="col">
                    {t(`admin.prices.columns.${c}`)}
                  </th>
                ))}
                <th scope="col">{t('admin.prices.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {result.data.map((o) => (
                <tr key={o.id}>
                  <td>
                    <strong>{t(`crops.${o.crop}`, { defaultValue: o.crop })}</strong> · {formatDay(o.observed_on)}
                  </td>
                  <td data-label={t('admin.prices.columns.market')}>{o.market ?? o.place ?? '—'}</td>
                  <td data-label={t('admin.prices.columns.price')}>
                    {twoDecimals.format(o.price_cents / 100)} {o.currency} /{' '}
                    {t(`price_units.${o.unit}`, { defaultValue: o.unit })}
                  </td>
                  <td data-label={t('admin.prices.columns.usd')}>
                    {formatMicros(o.usd_micros)}
                    {o.outlier && <span className="badge red"> {t('admin.prices.outlier')}</span>}
                  </td>
                  <td data-label={t('admin.prices.columns.source')}>
                    {t(`admin.prices.sources.${o.source}`)}
                    {o.note && <p className="muted">{o.note}</p>}
                  </td>
                  <td className="actions">
                    {o.source !== 'sale' && (
                      <button type="button" className="button secondary small" onClick={() => setEditing(o)}>
                        {t('admin.prices.correct')}
                      </button>
                    )}
                    <button type="button" className="button danger small" onClick={() => setRemoving(o)}>
                      {t('admin.prices.remove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={result} onPage={setPage} />
      <PriceSources markets={markets} onChanged={() => void load()} />
      {editing && (
        <CorrectDialog
          observation={editing}
          markets={markets}
          busy={busy}
          refusal={refusal}
          onSave={(fields) =>
            void change(
              () => api(`/admin/prices/${editing.id}`, { method: 'PATCH', json: fields }),
              t('admin.prices.corrected'),
            )
          }
          onCancel={() => {
            setEditing(null);
            setRefusal(null);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('admin.prices.remove_title')}
        confirmLabel={t('admin.prices.remove')}
        cancelLabel={t('common.cancel')}
        danger
        busy={busy}
        onConfirm={() =>
          removing &&
          void change(() => api(`/admin/prices/${removing.id}`, { method: 'DELETE' }), t('admin.prices.removed'))
        }
        onCancel={() => {
          setRemoving(null);
          setRefusal(null);
        }}
      >
        <p>{t('admin.prices.remove_body')}</p>
        <ErrorBox messages={refusal ? errorMessages(refusal, t, 'admin.prices.action_failed') : []} />
      </ConfirmDialog>
    </div>
  );
}

/** An observation as typed again: every field, as the agent's form has them. */
function CorrectDialog({
  observation: o,
  markets,
  busy,
  refusal,
  onSave,
  onCancel,
}: {
  observation: Observation;
  markets: Market[];
  busy: boolean;
  refusal: unknown;
  onSave(fields: Record<string, unknown>): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState({
    market_id: o.market_id ? String(o.market_id) : '',
    crop: o.crop,
    unit: o.unit,
    price: (o.price_cents / 100).toFixed(2),
    currency: o.currency,
    observed_on: o.observed_on,
    note: o.note ?? '',
  });
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: e.target.value }));
  return (
    <ConfirmDialog
      open
      title={t('admin.prices.correct_title')}
      confirmLabel={t('admin.prices.save')}
      cancelLabel={t('common.cancel')}
      busy={busy}
      onConfirm={() =>
        onSave({ ...values, market_id: values.market_id ? Number(values.market_id) : null, note: values.note || null })
      }
      onCancel={onCancel}
    >
      <ErrorBox messages={refusal ? errorMessages(refusal, t, 'admin.prices.action_failed') : []} />
      <SelectField label={t('prices.market')} value={values.market_id} onChange={set('market_id')}>
        <MarketOptions markets={markets} blank={t('agent.prices.choose_market')} />
      </SelectField>
      <SelectField label={t('prices.crop')} value={values.crop} onChange={set('crop')}>
        <CropOptions />
      </SelectField>
      <SelectField label={t('agent.prices.unit')} value={values.unit} onChange={set('unit')}>
        {PRICE_UNITS.map((u) => (
          <option key={u} value={u}>
            {t(`price_units.${u}`)}
          </option>
        ))}
      </SelectField>
      <TextField label={t('agent.prices.price')} inputMode="decimal" value={values.price} onChange={set('price')} />
      <SelectField label={t('agent.prices.currency')} value={values.currency} onChange={set('currency')}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {t(`agent.prices.currencies.${c}`)}
          </option>
        ))}
      </SelectField>
      <TextField label={t('agent.prices.day')} type="date" value={values.observed_on} onChange={set('observed_on')} />
      <TextField label={t('agent.prices.note')} maxLength={200} value={values.note} onChange={set('note')} />
    </ConfirmDialog>
  );
}
