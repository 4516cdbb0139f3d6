// The marketplace (docs/product.md, Screens): search, sort, categories, cards. It reads
// the catalogue on the device, so it filters as the person types and works
// with no signal once it has been loaded.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { useCatalogueDb } from '../../lib/sync/provider';
import { SelectField, TextField } from '../../components/form';
import { PinIcon } from '../../components/icons';
import { LoadingCards } from '../../components/loading-cards';
import { CATEGORIES, productDescription, productTitle, type Category, type Product } from '../../lib/entities/products';
import { onSale, useSyncedList } from '../../lib/entities/catalogue';
import { SORTS, filterProducts, type CatalogueFilters, type Sort } from '../../lib/entities/product-search';
import { Price, ProductImage, QuickAdd, Stars, StockLine, useDataSaver } from '../../components/product-parts';
import { usePageHead } from '../../lib/page-head';
import { placeName } from '../../lib/format';
import { filtersFromUrl } from '../../lib/list-filters';
import { LotBadge, LotLine } from '../../components/lot-note';

const EMPTY: CatalogueFilters = { q: '', category: 'all', sort: 'name' };
/** Cards drawn at a time: a phone with 10,000 products on it draws the first ones at once. */
const PAGE = 24;

export function MarketplacePage() {
  usePageHead('marketplace');
  const { t } = useTranslation();
  const db = useCatalogueDb();
  const { items: products, loaded } = useSyncedList(db, onSale);
  const [params] = useSearchParams();
  const [filters, setFilters] = useState(() => filtersFromUrl(params, EMPTY, { category: CATEGORIES, sort: SORTS }));
  const [drawn, setDrawn] = useState(PAGE);
  const [saveData, setSaveData] = useDataSaver();
  const filter = (next: CatalogueFilters | ((f: CatalogueFilters) => CatalogueFilters)) => {
    setFilters(next);
    setDrawn(PAGE);
  };
  const set = <K extends keyof CatalogueFilters>(key: K, value: CatalogueFilters[K]) =>
    filter((f) => ({ ...f, [key]: value }));

  if (!products || loaded === undefined)
    return <LoadingCards className="" label={t('market.loading')} head={<h1>{t('market.title')}</h1>} />;
  if (!loaded && products.length === 0) {
    return (
      <section className="page narrow coming-soon">
        <h1>{t('market.title')}</h1>
        <p>{t('market.never_loaded')}</p>
      </section>
    );
  }
  const shown = filterProducts(products, filters);
  return (
    <section className="page marketplace" aria-labelledby="market-title">
      <h1 id="market-title">{t('market.title')}</h1>
      <div className="market-tools">
        <TextField
          label={t('market.search')}
          type="search"
          placeholder={t('market.search_placeholder')}
          value={filters.q}
          onChange={(e) => set('q', e.target.value)}
        />
        <SelectField
          label={t('market.sort')}
          value={filters.sort}
          onChange={(e) => set('sort', e.target.value as Sort)}
        >
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`market.sorts.${s}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="chips" role="group" aria-label={t('market.categories')}>
        {(['all', ...CATEGORIES] as const).map((c) => (
          <button
            key={c}
            type="button"
            className="chip"
            aria-pressed={filters.category === c}
            onClick={() => set('category', c as Category | 'all')}
          >
            {t(`market.category.${c}`)}
          </button>
        ))}
      </div>
      <div className="market-status">
        <p role="status">{t('market.showing', { count: shown.length, total: products.length })}</p>
        <label className="checkbox compact">
          <input type="checkbox" checked={saveData} onChange={(e) => setSaveData(e.target.checked)} />
          <span>{t('market.save_data')}</span>
        </label>
      </div>
      {shown.length === 0 ? (
        <div className="card coming-soon">
          <h2>{t('market.empty_title')}</h2>
          <p>{t('market.empty_body')}</p>
          <button type="button" className="button" onClick={() => filter(EMPTY)}>
            {t('market.clear_filters')}
          </button>
        </div>
      ) : (
        <>
          <ul className="product-grid">
            {shown.slice(0, drawn).map((p, index) => (
              <ProductCard key={p.uid} product={p} saveData={saveData} first={index === 0} />
            ))}
          </ul>
          {shown.length > drawn && (
            <button type="button" className="button secondary show-more" onClick={() => setDrawn((n) => n + PAGE)}>
              {t('market.show_more', { count: Math.min(PAGE, shown.length - drawn) })}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function ProductCard({ product: p, saveData, first }: { product: Product; saveData: boolean; first: boolean }) {
  const { t, i18n } = useTranslation();
  // The farmer's name for the product in the reader's language, if they gave one.
  const title = productTitle(p, i18n.resolvedLanguage);
  return (
    <li className="card product-card">
      <div className="product-media">
        <ProductImage
          src={p.image_urls[0]?.thumbnail_url}
          alt={title}
          width={320}
          height={240}
          saveData={saveData}
          priority={first}
          category={p.category}
        />
        {p.certifications.includes('organic') && (
          <span className="badge green organic">{t('market.certifications.organic')}</span>
        )}
        {p.lot && <LotBadge />}
      </div>
      <div className="product-body">
        <h2>
          <Link to={paths.product(p.id!)}>{title}</Link>
        </h2>
        <Stars rating={p.rating} reviews={p.reviews} />
        {p.lot && <LotLine lot={p.lot} />}
        {p.farmer.location && (
          <p className="muted location">
            <PinIcon /> {placeName(p.farmer.location, t)}
          </p>
        )}
        <p className="description">{productDescription(p, i18n.resolvedLanguage)}</p>
        <Price product={p} />
        <StockLine product={p} />
        <div className="actions">
          <QuickAdd product={p} title={title} />
          <Link className="button secondary small" to={paths.product(p.id!)}>
            {t('market.view_details')}
          </Link>
        </div>
      </div>
    </li>
  );
}
