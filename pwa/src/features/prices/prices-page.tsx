// Market prices (docs/prices.md): each crop's median of its newest week, its last 12
// weeks as a small line, its range and markets, in US dollars and Congolese francs,
// with how many prices stand behind each figure and where they come from. The prices
// come first (in the reader's own territory when their account names one), the filters
// folded under the heading; they are the address's (`?crop=&market=&territory=`), as
// the first screen's form sends them. The whole board is kept on the phone: offline,
// any filter is read from it, and the page says when it was saved.
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CropOptions, MarketOptions } from '../../components/price-options';
import { SelectField } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Sparkline } from '../../components/sparkline';
import { Spinner } from '../../components/spinner';
import { formatDate, formatDay } from '../../lib/format';
import { formatFrancs } from '../../lib/entities/francs';
import { usePageHead } from '../../lib/page-head';
import { useSession } from '../../lib/session';
import { useCatalogueDb } from '../../lib/sync/provider';
import {
  fetchBoard,
  filterSavedBoard,
  formatMicros,
  saveBoard,
  savedBoard,
  territoryOf,
  type Board,
  type BoardCard,
  type BoardFilters,
  type Market,
} from '../../lib/entities/prices';

const FILTERS = ['crop', 'market', 'territory'] as const;
/** A saved whole board older than this is fetched again while a filtered one is shown. */
const SAVED_FRESH_MS = 60 * 60 * 1000;

interface Answer {
  key: string;
  board: Board;
  cards: BoardCard[];
  markets: Market[];
  /** When it comes from the phone's saved copy (no signal): when that was saved. */
  savedAt?: string;
}

export function PricesPage() {
  usePageHead('prices');
  const { t } = useTranslation();
  const { user } = useSession();
  const db = useCatalogueDb();
  const [params, setParams] = useSearchParams();
  const [known, setKnown] = useState<Market[]>([]);
  // A reader with a place: the markets saved on the phone say its territory before the
  // first answer, so the page does not show every market first and then theirs.
  const [ready, setReady] = useState(!user?.location);
  useEffect(() => {
    if (ready || !db) return;
    void savedBoard(db).then((saved) => {
      if (saved) setKnown(saved.markets);
      setReady(true);
    });
  }, [db, ready]);
  // No filter asked: the reader's own territory, when their account's place names one.
  const home = FILTERS.some((f) => params.has(f)) ? undefined : territoryOf(user?.location, known);
  const filters: BoardFilters = Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? '']));
  if (home) filters.territory = home;
  const key = FILTERS.map((f) => filters[f]).join('|');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [failed, setFailed] = useState<unknown>(null);

  const load = useCallback(async () => {
    setFailed(null);
    const whole = !filters.crop && !filters.market && !filters.territory;
    try {
      const { data, markets } = await fetchBoard(filters);
      setAnswer({ key, board: data, cards: data.crops, markets });
      setKnown(markets);
      if (db && whole) await saveBoard(db, data, markets);
      // A filtered answer: the whole board is kept fresh beside it for the next time offline.
      const saved = db ? await savedBoard(db) : undefined;
      if (db && !whole && (!saved || Date.now() - Date.parse(saved.savedAt) > SAVED_FRESH_MS)) {
        const all = await fetchBoard({});
        await saveBoard(db, all.data, all.markets);
      }
    } catch (error) {
      const saved = db ? await savedBoard(db) : undefined;
      if (!saved) return setFailed(error);
      const cards = filterSavedBoard(saved.board, filters, saved.markets);
      setAnswer({ key, board: saved.board, cards, markets: saved.markets, savedAt: saved.savedAt });
      setKnown(saved.markets);
    }
    // `key` holds the filters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, db]);
  useEffect(() => {
    if (ready) void load();
  }, [load, ready]);

  const choose = (field: (typeof FILTERS)[number]) => (event: React.ChangeEvent<HTMLSelectElement>) => {
    const next = new URLSearchParams(params);
    // Chosen, even "all": the reader's territory is no longer assumed.
    next.set(field, event.target.value);
    // A market is in one territory: choosing one clears the other.
    if (field === 'market') next.set('territory', '');
    if (field === 'territory') next.set('market', '');
    for (const f of FILTERS) if (!next.get(f) && f !== field) next.delete(f);
    setParams(next, { replace: true });
  };
  // The last answer's markets stay in the filters while the next one loads.
  const markets = answer?.markets ?? known;
  const territories = [...new Set(markets.map((m) => m.territory))].sort();
  const chosen = [
    filters.crop ? t(`crops.${filters.crop as 'maize'}`) : t('prices.all_crops'),
    filters.market
      ? (markets.find((m) => String(m.id) === filters.market)?.name ?? '')
      : filters.territory || t('prices.all_markets'),
  ].join(' · ');

  return (
    <section className="page prices" aria-labelledby="prices-title">
      <header>
        <h1 id="prices-title">{t('prices.title')}</h1>
      </header>
      <details className="price-filters">
        <summary>
          {t('prices.filters')}: <span className="muted">{chosen}</span>
        </summary>
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
      </details>
      {answer?.key === key && answer.savedAt && (
        <p className="sync-note wait" role="status">
          {t('prices.saved_copy', { time: formatDate(answer.savedAt, 'time') })}
        </p>
      )}
      {failed !== null && answer?.key !== key ? (
        <LoadFailed title={t('prices.load_failed')} error={failed} fallbackKey="prices.load_failed" onRetry={load} />
      ) : answer?.key !== key ? (
        <Spinner label={t('prices.loading')} />
      ) : answer.cards.length === 0 ? (
        <div className="card coming-soon">
          <h2>{t('prices.empty_title')}</h2>
          <p>{t('prices.empty_body')}</p>
        </div>
      ) : (
        <ul className="cards-grid price-cards">
          {answer.cards.map((prices) => (
            <li key={`${prices.crop}-${prices.unit}-${prices.market ?? ''}`}>
              <PriceCard prices={prices} board={answer.board} />
            </li>
          ))}
        </ul>
      )}
      <p className="lead">{t('prices.intro')}</p>
      <p className="muted">{t('prices.how')}</p>
    </section>
  );
}

function PriceCard({ prices, board }: { prices: BoardCard; board: Board }) {
  const { t } = useTranslation();
  const crop = t(`crops.${prices.crop}`);
  const unit = t(`price_units.${prices.unit}`);
  const francs = (micros: number) =>
    board.francs_per_usd ? formatFrancs((micros / 1e6) * board.francs_per_usd) : null;
  const median = francs(prices.median_usd_micros);
  const { sales, agents, imports } = prices.sources;
  const weeks = prices.series.filter((v): v is number => v !== null);
  return (
    <article
      className="card price-card"
      aria-labelledby={`price-${prices.crop}-${prices.unit}${prices.market ? `-${prices.market}` : ''}`}
    >
      <h2 id={`price-${prices.crop}-${prices.unit}${prices.market ? `-${prices.market}` : ''}`}>
        {crop} <span className="muted">{t('prices.per_unit', { unit })}</span>
        {prices.market && <span className="muted"> · {prices.market}</span>}
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
      {weeks.length > 1 && (
        <Sparkline
          values={prices.series}
          title={t('prices.line_title', { crop })}
          description={t('prices.line_description', {
            low: formatMicros(Math.min(...weeks)),
            high: formatMicros(Math.max(...weeks)),
            count: board.weeks.length,
          })}
        />
      )}
      <p className="muted">
        {prices.market
          ? t('prices.at_market', { count: prices.observations })
          : `${t('prices.behind', { count: prices.observations })} `}
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
