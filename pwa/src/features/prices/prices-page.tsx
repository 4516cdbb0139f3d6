// Market prices (docs/prices.md): each crop's median of its newest week, its last 12
// weeks as a small line, its range and markets, in US dollars and Congolese francs,
// with how many prices stand behind each figure and where they come from. The
// filters are the address's (`?crop=&market=&territory=`), as the first screen's form
// sends them; the service worker keeps the last answer of each for offline.
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CropOptions, MarketOptions } from '../../components/price-options';
import { SelectField } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Sparkline } from '../../components/sparkline';
import { Spinner } from '../../components/spinner';
import { formatDay } from '../../lib/format';
import { formatFrancs } from '../../lib/entities/francs';
import { usePageHead } from '../../lib/page-head';
import {
  fetchBoard,
  formatMicros,
  type Board,
  type BoardFilters,
  type CropPrices,
  type Market,
} from '../../lib/entities/prices';

const FILTERS = ['crop', 'market', 'territory'] as const;

export function PricesPage() {
  usePageHead('prices');
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters: BoardFilters = Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? '']));
  const key = FILTERS.map((f) => filters[f]).join('|');
  const [answer, setAnswer] = useState<{ key: string; board: Board; markets: Market[] } | null>(null);
  const [failed, setFailed] = useState<unknown>(null);

  const load = useCallback(async () => {
    setFailed(null);
    try {
      const { data, markets } = await fetchBoard(filters);
      setAnswer({ key, board: data, markets });
    } catch (error) {
      setFailed(error);
    }
    // `key` holds the filters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  useEffect(() => {
    void load();
  }, [load]);

  const choose = (field: (typeof FILTERS)[number]) => (event: React.ChangeEvent<HTMLSelectElement>) => {
    const next = new URLSearchParams(params);
    if (event.target.value) next.set(field, event.target.value);
    else next.delete(field);
    // A market is in one territory: choosing one clears the other.
    if (field === 'market') next.delete('territory');
    if (field === 'territory') next.delete('market');
    setParams(next, { replace: true });
  };
  // The last answer's markets stay in the filters while the next one loads.
  const markets = answer?.markets ?? [];
  const territories = [...new Set(markets.map((m) => m.territory))].sort();

  return (
    <section className="page prices" aria-labelledby="prices-title">
      <header>
        <h1 id="prices-title">{t('prices.title')}</h1>
        <p className="lead">{t('prices.intro')}</p>
      </header>
      <form className="filter-bar" onSubmit={(e) => e.preventDefault()} aria-label={t('prices.filters')}>
        <SelectField label={t('prices.crop')} name="crop" value={filters.crop} onChange={choose('crop')}>
          <CropOptions blank={t('prices.all_crops')} />
        </SelectField>
        <SelectField
          label={t('prices.territory')}
          name="territory"
          value={filters.territory}
          onChange={choose('territory')}
        >
          <option value="">{t('prices.all_territories')}</option>
          {territories.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('prices.market')} name="market" value={filters.market} onChange={choose('market')}>
          <MarketOptions markets={markets} blank={t('prices.all_markets')} />
        </SelectField>
        <button type="submit" className="button secondary small">
          {t('prices.show')}
        </button>
      </form>
      {failed !== null && answer?.key !== key ? (
        <LoadFailed title={t('prices.load_failed')} error={failed} fallbackKey="prices.load_failed" onRetry={load} />
      ) : answer?.key !== key ? (
        <Spinner label={t('prices.loading')} />
      ) : answer.board.crops.length === 0 ? (
        <div className="card coming-soon">
          <h2>{t('prices.empty_title')}</h2>
          <p>{t('prices.empty_body')}</p>
        </div>
      ) : (
        <ul className="cards-grid price-cards">
          {answer.board.crops.map((prices) => (
            <li key={`${prices.crop}-${prices.unit}`}>
              <PriceCard prices={prices} board={answer.board} />
            </li>
          ))}
        </ul>
      )}
      <p className="muted">{t('prices.how')}</p>
    </section>
  );
}

function PriceCard({ prices, board }: { prices: CropPrices; board: Board }) {
  const { t } = useTranslation();
  const crop = t(`crops.${prices.crop}`);
  const unit = t(`price_units.${prices.unit}`);
  const francs = (micros: number) =>
    board.francs_per_usd ? formatFrancs((micros / 1e6) * board.francs_per_usd) : null;
  const median = francs(prices.median_usd_micros);
  const { sales, agents, imports } = prices.sources;
  const known = prices.series.filter((v): v is number => v !== null);
  return (
    <article className="card price-card" aria-labelledby={`price-${prices.crop}-${prices.unit}`}>
      <h2 id={`price-${prices.crop}-${prices.unit}`}>
        {crop} <span className="muted">{t('prices.per_unit', { unit })}</span>
      </h2>
      <p className="price-median">
        <strong>{formatMicros(prices.median_usd_micros)}</strong>
        {median && <span className="muted"> ≈ {median}</span>}
      </p>
      <p>
        {t('prices.week_of', { day: formatDay(prices.week) })}
        {prices.change_percent !== null && (
          <span
            className={`price-change ${prices.change_percent > 0 ? 'up' : prices.change_percent < 0 ? 'down' : ''}`}
          >
            {' '}
            {t('prices.change', { change: `${prices.change_percent > 0 ? '+' : ''}${prices.change_percent}` })}
          </span>
        )}
      </p>
      <p>
        {t('prices.range', {
          low: formatMicros(prices.low_usd_micros),
          high: formatMicros(prices.high_usd_micros),
        })}
      </p>
      {known.length > 1 && (
        <Sparkline
          values={prices.series}
          title={t('prices.line_title', { crop })}
          description={t('prices.line_description', {
            low: formatMicros(Math.min(...known)),
            high: formatMicros(Math.max(...known)),
            count: board.weeks.length,
          })}
        />
      )}
      <p className="muted">
        {t('prices.behind', { count: prices.observations })}{' '}
        {[
          sales > 0 && t('prices.from_sales', { count: sales }),
          agents > 0 && t('prices.from_agents', { count: agents }),
          imports > 0 && t('prices.from_imports', { count: imports }),
        ]
          .filter(Boolean)
          .join(', ')}
        {prices.sources.outliers > 0 && ` ${t('prices.outliers', { count: prices.sources.outliers })}`}
      </p>
      {prices.markets.length > 0 && (
        <details>
          <summary>{t('prices.by_market', { count: prices.markets.length })}</summary>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">{t('prices.market')}</th>
                <th scope="col">{t('prices.median')}</th>
                <th scope="col">{t('prices.low_high')}</th>
              </tr>
            </thead>
            <tbody>
              {prices.markets.map((m) => (
                <tr key={m.market_id}>
                  <th scope="row">
                    {m.name} <span className="muted">({m.observations})</span>
                  </th>
                  <td>{formatMicros(m.median_usd_micros)}</td>
                  <td>
                    {formatMicros(m.low_usd_micros)}–{formatMicros(m.high_usd_micros)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </article>
  );
}
