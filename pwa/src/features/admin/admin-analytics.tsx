// The admin's Analytics (docs/analytics.md): a card per chart, each with its period, its
// CSV, the chart drawn in SVG, a sentence that says what it shows, and its numbers as a
// table. Online, like every admin screen.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type en from '../../locales/en.json';
import { SelectField } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Spinner } from '../../components/spinner';
import { api } from '../../lib/api';
import { formatMoney } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { COLOURS, RowBars, StackedBars } from './charts';
import { ExportButton } from '../../components/export-button';
import './analytics.css';

const CHARTS = [
  'goals',
  'signups',
  'applications',
  'listings',
  'orders',
  'top_products',
  'top_farmers',
  'courses',
] as const;
const PERIODS = ['30d', '90d', '12m', 'all'] as const;
type ChartName = (typeof CHARTS)[number];
type Period = (typeof PERIODS)[number];
type Key = keyof (typeof en)['analytics']['keys'];
type Unit = 'count' | 'cents' | 'hours' | 'percent';

export interface ChartData {
  grain: 'day' | 'week' | 'month';
  buckets: string[];
  series: { key: Key; unit: Unit; values: number[] }[];
  table: {
    rows_are: 'country' | 'status' | 'category' | 'product' | 'farmer' | 'course';
    columns: { key: Key; unit: Unit }[];
    rows: { key: string; label: string | null; values: number[] }[];
  } | null;
  figures: { key: Key; unit: Unit; value: number | null; target: number | null }[];
}

/** A value in its unit, in the reader's language. */
export function formatValue(value: number, unit: Unit): string {
  if (unit === 'cents') return formatMoney(value / 100);
  return new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 1 }).format(value);
}

/** A bucket's first day (or month) as people read it. */
export function bucketLabel(bucket: string, grain: ChartData['grain']): string {
  const [y, m, d] = bucket.split('-').map(Number);
  const options: Intl.DateTimeFormatOptions =
    grain === 'month' ? { month: 'short', year: '2-digit' } : { day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat(currentLanguage(), { ...options, timeZone: 'UTC' }).format(
    Date.UTC(y!, (m ?? 1) - 1, d ?? 1),
  );
}

export function AdminAnalytics() {
  const { t } = useTranslation();
  return (
    <section className="analytics" aria-labelledby="analytics-title">
      <h2 id="analytics-title">{t('analytics.title')}</h2>
      <p className="hint">{t('analytics.intro')}</p>
      {CHARTS.map((chart) => (
        <ChartCard key={chart} chart={chart} />
      ))}
    </section>
  );
}

function ChartCard({ chart }: { chart: ChartName }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<Period>(chart === 'goals' || chart === 'listings' ? 'all' : '12m');
  const [data, setData] = useState<ChartData | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setData(null);
    setError(null);
    api<{ data: ChartData }>(`/admin/analytics/${chart}?period=${period}`).then(
      (answer) => live && setData(answer.data),
      (caught: unknown) => live && setError(caught),
    );
    return () => {
      live = false;
    };
  }, [chart, period, attempt]);
  const title = t(`analytics.charts.${chart}`);
  const headingId = `chart-${chart}`;

  return (
    <article className="card chart-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <div className="chart-tools">
        <SelectField label={t('analytics.period')} value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
          {PERIODS.map((p) => (
            <option key={p} value={p}>
              {t(`analytics.periods.${p}`)}
            </option>
          ))}
        </SelectField>
        <ExportButton path={`/admin/analytics/${chart}/export?period=${period}&lang=${currentLanguage()}`} />
      </div>
      {error ? (
        <LoadFailed
          title={title}
          error={error}
          fallbackKey="analytics.load_failed"
          onRetry={() => setAttempt((n) => n + 1)}
        />
      ) : !data ? (
        <Spinner label={t('common.loading')} />
      ) : (
        <ChartBody data={data} title={`${title}, ${t(`analytics.periods.${period}`)}`} />
      )}
    </article>
  );
}

export function ChartBody({ data, title }: { data: ChartData; title: string }) {
  const { t } = useTranslation();
  const keyLabel = (key: Key) => t(`analytics.keys.${key}`);
  const rowLabel = (row: NonNullable<ChartData['table']>['rows'][number]) => {
    const kind = data.table?.rows_are;
    if (row.label) return row.label;
    if (kind === 'country') return row.key === 'none' ? keyLabel('none') : t(`countries.${row.key as 'DRC'}`);
    if (kind === 'category') return t(`market.category.${row.key as 'fruits'}`);
    return keyLabel(row.key as Key);
  };
  const labels = data.buckets.map((b) => bucketLabel(b, data.grain));
  const figures = data.figures.map((f) =>
    t('analytics.figure_value', {
      key: keyLabel(f.key),
      value: f.value === null ? t('analytics.not_recorded') : formatValue(f.value, f.unit),
    }),
  );
  const nothing =
    data.series.every((s) => s.values.every((v) => v === 0)) &&
    (data.table?.rows.length ?? 0) === 0 &&
    data.figures.every((f) => !f.value);
  if (nothing && data.figures.every((f) => f.target === null)) return <p className="muted">{t('analytics.empty')}</p>;

  // The sentence every chart is described by (its text alternative with the table below).
  // Top lists are ranked by value: their bars and sentence say it; other tables by their first column.
  const measure = data.table?.rows_are === 'product' || data.table?.rows_are === 'farmer' ? 1 : 0;
  const measured = data.table?.columns[measure];
  const top = data.table?.rows
    .slice(0, 3)
    .map((r) => `${rowLabel(r)} ${formatValue(r.values[measure] ?? 0, measured!.unit)}`);
  const summary = t('analytics.summary', {
    chart: title,
    totals: (figures.length > 0 ? figures : (top ?? [])).join(', '),
  });
  const units = [...new Set(data.series.map((s) => s.unit))];

  return (
    <>
      {data.figures.length > 0 && (
        <dl className="chart-figures">
          {data.figures.map((f) => (
            <div key={f.key}>
              <dt>{keyLabel(f.key)}</dt>
              <dd>
                {f.value === null
                  ? t('analytics.not_recorded')
                  : f.target
                    ? t('analytics.of_target', {
                        value: formatValue(f.value, f.unit),
                        target: formatValue(f.target, 'count'),
                      })
                    : formatValue(f.value, f.unit)}
                {f.target !== null && f.value !== null && (
                  <progress max={f.target} value={Math.min(f.value, f.target)} aria-label={keyLabel(f.key)} />
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {units.map((unit) => {
        const series = data.series.filter((s) => s.unit === unit);
        return (
          <figure key={unit} className="chart-figure">
            <StackedBars
              title={series.map((s) => keyLabel(s.key)).join(', ')}
              description={summary}
              labels={labels}
              series={series.map((s) => ({ name: keyLabel(s.key), values: s.values }))}
              format={(v) => formatValue(v, unit)}
            />
            {series.length > 1 && (
              <figcaption>
                <ul className="chart-legend">
                  {series.map((s, i) => (
                    <li key={s.key}>
                      <span className="swatch" style={{ background: COLOURS[i % COLOURS.length] }} aria-hidden="true" />
                      {keyLabel(s.key)}
                    </li>
                  ))}
                </ul>
              </figcaption>
            )}
          </figure>
        );
      })}
      {data.table && data.table.rows.length > 0 && (data.series.length === 0 || data.table.rows_are === 'country') && (
        <RowBars
          title={keyLabel(measured!.key)}
          description={summary}
          rows={data.table.rows.map((r) => ({ name: rowLabel(r), value: r.values[measure] ?? 0 }))}
          format={(v) => formatValue(v, measured!.unit)}
        />
      )}
      <p className="visually-hidden">{summary}</p>
      <details className="chart-numbers">
        <summary>{t('analytics.numbers')}</summary>
        {data.series.length > 0 && (
          <div className="table-scroll">
            <table>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t(`analytics.grain.${data.grain}`)}</th>
                  {data.series.map((s) => (
                    <th key={s.key} scope="col">
                      {keyLabel(s.key)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {labels.map((label, i) => (
                  <tr key={data.buckets[i]}>
                    <th scope="row">{label}</th>
                    {data.series.map((s) => (
                      <td key={s.key}>{formatValue(s.values[i] ?? 0, s.unit)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data.table && (
          <div className="table-scroll">
            <table>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{keyLabel(data.table.rows_are)}</th>
                  {data.table.columns.map((c) => (
                    <th key={c.key} scope="col">
                      {keyLabel(c.key)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.table.rows.map((row) => (
                  <tr key={row.key}>
                    <th scope="row">{rowLabel(row)}</th>
                    {data.table!.columns.map((c, i) => (
                      <td key={c.key}>{formatValue(row.values[i] ?? 0, c.unit)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </>
  );
}
