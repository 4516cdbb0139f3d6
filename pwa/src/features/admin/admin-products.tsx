// The admin's Products section: every listing (also off sale), filters, a listing's
// details (as its farmer sees them), hide it with a reason its farmer reads, restore
// it, and the CSV export.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/dialog';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { Pager } from '../../components/pager';
import { Price } from '../../components/product-parts';
import { useToast } from '../../components/toast';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { CATEGORIES, type Product } from '../../lib/entities/products';
import { ProductDetails } from '../../components/product-details';
import { useLocalDb } from '../../lib/sync/provider';
import { FilterBar, ListPending, useAdminList } from './admin-list';

type Standing = '' | 'on_sale' | 'off_sale' | 'hidden';
interface Filters {
  q: string;
  category: string;
  status: Standing;
  low_stock: boolean;
}
type AdminProduct = Product & { hidden?: { reason: string; at: string } | null };
interface ProductPage {
  data: AdminProduct[];
  total: number;
  page: number;
  per_page: number;
}

function query(filters: Filters, extra: Record<string, string>): string {
  const params = new URLSearchParams(extra);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.category) params.set('category', filters.category);
  if (filters.status) params.set('status', filters.status);
  if (filters.low_stock) params.set('low_stock', 'true');
  return params.toString();
}

/** A page of listings matching the filters. */
const readProducts = (filters: Filters, page: number) =>
  api<ProductPage>(`/admin/products?${query(filters, { page: String(page) })}`);

export function AdminProducts() {
  const { t } = useTranslation();
  const toast = useToast();
  const list = useAdminList<Filters, ProductPage>({ q: '', category: '', status: '', low_stock: false }, readProducts);
  const { filters, setFilter, setPage, result, error } = list;
  const { category, status, low_stock } = filters;
  const load = list.reload;
  const [hiding, setHiding] = useState<AdminProduct | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [viewing, setViewing] = useState<AdminProduct | null>(null);
  const db = useLocalDb();

  const act = async (product: AdminProduct, action: 'hide' | 'restore') => {
    setBusy(true);
    setRefusal(null);
    try {
      await api(`/admin/products/${product.id}/${action}`, {
        method: 'POST',
        ...(action === 'hide' ? { json: { reason } } : {}),
      });
      toast('success', t(action === 'hide' ? 'admin.products.hidden_done' : 'admin.products.restored_done'));
      setHiding(null);
      setReason('');
      await load();
    } catch (caught) {
      setRefusal(caught);
      if (action === 'restore') toast('error', errorMessages(caught, t, 'admin.products.action_failed')[0]!);
    } finally {
      setBusy(false);
    }
  };

  if (!result) return <ListPending error={error} failedKey="admin.products.load_failed" retry={() => void load()} />;

  return (
    <div className="admin-screen">
      <FilterBar
        search={{
          value: filters.q,
          placeholder: t('admin.products.search_placeholder'),
          onChange: (q) => setFilter('q', q),
        }}
        exportPath={`/admin/products/export?${query(list.asked, { lang: currentLanguage() })}`}
      >
        <SelectField
          label={t('products.fields.category')}
          value={category}
          onChange={(e) => setFilter('category', e.target.value)}
        >
          <option value="">{t('market.category.all')}</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`market.category.${c}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('profile.status')}
          value={status}
          onChange={(e) => setFilter('status', e.target.value as Standing)}
        >
          <option value="">{t('admin.products.all')}</option>
          {(['on_sale', 'off_sale', 'hidden'] as const).map((s) => (
            <option key={s} value={s}>
              {t(`admin.products.${s}`)}
            </option>
          ))}
        </SelectField>
        <label className="checkbox">
          <input type="checkbox" checked={low_stock} onChange={(e) => setFilter('low_stock', e.target.checked)} />
          <span>{t('admin.products.low_stock_only')}</span>
        </label>
      </FilterBar>
      {error !== null && <ErrorBox messages={errorMessages(error, t, 'admin.products.load_failed')} />}
      {result.data.length === 0 ? (
        <p className="card empty-note">{t('market.empty_title')}</p>
      ) : (
        <ul className="admin-products">
          {result.data.map((p) => (
            <li key={p.uid} className="card admin-product">
              <div>
                <h2>{p.title}</h2>
                <p className="muted">
                  {p.farmer.name} · {t(`market.category.${p.category}`)} · {formatDate(p.created_at, 'short')}
                </p>
                <Price product={p} />
                <p className="muted">
                  {t('market.in_stock', { count: p.quantity, unit: t(`market.units.${p.unit}`) })} ·{' '}
                  <span className={`badge ${p.hidden ? 'red' : p.status === 'active' ? 'green' : ''}`}>
                    {t(`admin.products.${p.hidden ? 'hidden' : p.status === 'active' ? 'on_sale' : 'off_sale'}`)}
                  </span>
                </p>
                {p.hidden && (
                  <p className="sync-note refused">
                    {t('admin.products.hidden_reason')}: {p.hidden.reason}
                  </p>
                )}
              </div>
              <div className="actions">
                <button type="button" className="button secondary small" onClick={() => setViewing(p)}>
                  {t('admin.view')}
                </button>
                {p.hidden ? (
                  <button
                    type="button"
                    className="button secondary small"
                    disabled={busy}
                    onClick={() => void act(p, 'restore')}
                  >
                    {t('admin.products.restore')}
                  </button>
                ) : (
                  <button type="button" className="button danger small" onClick={() => setHiding(p)}>
                    {t('admin.products.hide')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager list={result} onPage={setPage} />
      {viewing && db && <ProductDetails db={db} product={viewing} onClose={() => setViewing(null)} />}
      <ConfirmDialog
        open={hiding !== null}
        title={t('admin.products.hide_title', { title: hiding?.title ?? '' })}
        confirmLabel={t('admin.products.hide')}
        cancelLabel={t('common.cancel')}
        danger
        busy={busy}
        onConfirm={() => hiding && void act(hiding, 'hide')}
        onCancel={() => {
          setHiding(null);
          setRefusal(null);
        }}
      >
        <p>{t('admin.products.hide_body')}</p>
        <ErrorBox messages={refusal ? errorMessages(refusal, t, 'admin.products.action_failed') : []} />
        <TextField
          label={t('admin.products.hidden_reason')}
          required
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
      </ConfirmDialog>
    </div>
  );
}
