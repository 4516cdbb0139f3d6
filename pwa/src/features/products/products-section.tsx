// The farmer's Products section (docs/product.md, Screens, "Farmer Products"): stats,
// search, price filter, the list, and a form that works with no signal,
// photos included; the sync engine sends it all when the network is back.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/dialog';
import { SelectField, TextField } from '../../components/form';
import { BoxIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import type { LocalDb } from '../../lib/sync/local-db';
import { newUid } from '../../lib/sync/engine';
import { StatCard } from '../../components/stat-card';
import { useOutbox } from '../../lib/sync/use-outbox';
import { LOW_STOCK, deleteProduct, useOwnProducts } from '../../lib/entities/products';
import { ProductRow } from './product-row';
import { ProductDetails } from '../../components/product-details';
import { ProductForm } from './product-form';
import '../../components/applications/applications.css';

type PriceFilter = 'all' | 'under_10' | '10_to_50' | 'over_50';
const PRICE_FILTERS: readonly PriceFilter[] = ['all', 'under_10', '10_to_50', 'over_50'];

export function inPriceBucket(price: number, filter: PriceFilter): boolean {
  if (filter === 'under_10') return price < 10;
  if (filter === '10_to_50') return price >= 10 && price <= 50;
  if (filter === 'over_50') return price > 50;
  return true;
}

type View = { mode: 'list' } | { mode: 'form'; uid: string } | { mode: 'details'; uid: string };

export function ProductsSection({ db, farmerId }: { db: LocalDb; farmerId: number }) {
  const { t } = useTranslation();
  const products = useOwnProducts(db, farmerId);
  const outbox = useOutbox(db);
  const [view, setView] = useState<View>({ mode: 'list' });
  const [search, setSearch] = useState('');
  const [price, setPrice] = useState<PriceFilter>('all');
  const [deleting, setDeleting] = useState<string | null>(null);

  if (!products) return <Spinner label={t('common.loading')} />;
  const current = view.mode === 'list' ? undefined : products.find((p) => p.uid === view.uid);
  if (view.mode === 'form') {
    return (
      <ProductForm
        db={db}
        uid={view.uid}
        existing={current}
        farmerId={farmerId}
        onDone={() => setView({ mode: 'list' })}
      />
    );
  }
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = products.filter(
    (p) =>
      inPriceBucket(Number(p.current_price), price) &&
      words.every((w) => `${p.title} ${p.description}`.toLowerCase().includes(w)),
  );
  const active = products.filter((p) => p.status === 'active').length;
  const low = products.filter((p) => Number(p.quantity) <= LOW_STOCK).length;
  const startNew = () => setView({ mode: 'form', uid: newUid() });

  return (
    <div className="farmer-products">
      <div className="stat-cards">
        <StatCard label={t('products.active')} value={active} />
        <StatCard label={t('products.low_stock', { count: LOW_STOCK })} value={low} />
      </div>
      <div className="section-head">
        <h2>{t('products.yours')}</h2>
        <button type="button" className="button" onClick={startNew}>
          <BoxIcon /> {t('products.new')}
        </button>
      </div>
      {products.length === 0 ? (
        <section className="card coming-soon">
          <BoxIcon />
          <h3>{t('products.empty_title')}</h3>
          <p>{t('products.empty_body')}</p>
          <button type="button" className="button" onClick={startNew}>
            {t('products.create_first')}
          </button>
        </section>
      ) : (
        <>
          <div className="card filters">
            <TextField
              label={t('admin.search')}
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <SelectField
              label={t('products.price_filter')}
              value={price}
              onChange={(e) => setPrice(e.target.value as PriceFilter)}
            >
              {PRICE_FILTERS.map((f) => (
                <option key={f} value={f}>
                  {t(`products.prices.${f}`)}
                </option>
              ))}
            </SelectField>
          </div>
          {shown.length === 0 ? (
            <p className="card empty-note">{t('market.empty_title')}</p>
          ) : (
            <ul className="application-list">
              {shown.map((p) => (
                <ProductRow
                  key={p.uid}
                  db={db}
                  product={p}
                  entries={outbox.filter((e) => e.uid === p.uid)}
                  onView={() => setView({ mode: 'details', uid: p.uid })}
                  onEdit={() => setView({ mode: 'form', uid: p.uid })}
                  onDelete={() => setDeleting(p.uid)}
                />
              ))}
            </ul>
          )}
        </>
      )}
      {view.mode === 'details' && current && (
        <ProductDetails db={db} product={current} onClose={() => setView({ mode: 'list' })} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('products.delete_title')}
        confirmLabel={t('profile.delete_confirm')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          if (deleting) void deleteProduct(db, deleting);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>{t('products.delete_warning')}</p>
      </ConfirmDialog>
    </div>
  );
}
