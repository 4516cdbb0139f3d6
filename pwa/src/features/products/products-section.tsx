// The farmer's Products section (SPEC section 2, "Farmer Products"): stats,
// search, price filter, the list, and a form that works with no signal,
// photos included; the sync engine sends it all when the network is back.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, Modal } from '../../components/dialog';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { AlertIcon, BoxIcon, ClockIcon, EditIcon, TrashIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatDate, formatDay, formatMoney } from '../../lib/format';
import { checkImage } from '../../lib/image-pick';
import type { LocalDb, OutboxEntry } from '../../lib/local-db';
import { keepPhoto, usePhotoUrl } from '../../lib/photos';
import { newUid } from '../../lib/sync-engine';
import { StatCard } from '../admin/admin-applications';
import { useOutbox } from '../applications/local';
import { Price } from '../marketplace/parts';
import {
  CATEGORIES,
  LOW_STOCK,
  deleteProduct,
  fieldsOf,
  saveProduct,
  useOwnProducts,
  type Product,
  type ProductFields,
} from './local';

type PriceFilter = 'all' | 'under_10' | '10_to_50' | 'over_50';
const PRICE_FILTERS: readonly PriceFilter[] = ['all', 'under_10', '10_to_50', 'over_50'];
const CERTIFICATIONS = ['organic', 'fair-trade', 'rainforest-alliance'] as const;
const MAX_PHOTOS = 6;

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

function Photo({ db, hash, size, alt }: { db: LocalDb; hash: string | undefined; size: 320 | 1024; alt: string }) {
  const url = usePhotoUrl(db, hash, size);
  if (!url) return <div className="product-image placeholder" aria-hidden="true" />;
  return <img className="product-image" src={url} alt={alt} loading="lazy" width={size} height={(size * 3) / 4} />;
}

function ProductRow(props: {
  db: LocalDb;
  product: Product;
  entries: OutboxEntry[];
  onView(): void;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const { product: p, entries } = props;
  const waiting = entries.some((e) => e.state === 'queued');
  const refused = entries.find((e) => e.state === 'rejected');
  return (
    <li className="card product-row">
      <Photo db={props.db} hash={p.images?.[0]} size={320} alt={p.title} />
      <div>
        <div className="application-head">
          <h3>{p.title}</h3>
          <span className={`badge ${p.status === 'active' ? 'green' : 'red'}`}>{t(`products.status.${p.status}`)}</span>
        </div>
        {waiting && (
          <p className="sync-note wait">
            <ClockIcon /> {t('products.waiting')}
          </p>
        )}
        {refused && (
          <p className="sync-note bad" role="alert">
            <AlertIcon /> {t('survey.refused')}:{' '}
            {t(`errors.${refused.result?.code ?? 'internal_error'}`, { defaultValue: refused.result?.message ?? '' })}
          </p>
        )}
        <p>
          <Price product={p} />
        </p>
        <p className="muted">
          {t('market.in_stock', { count: p.quantity, unit: t(`market.units.${p.unit}`) })}
          {Number(p.quantity) <= LOW_STOCK && (
            <>
              {' '}
              · <strong>{t('products.low')}</strong>
            </>
          )}
          {p.created_at && <> · {formatDate(p.created_at, 'short')}</>}
        </p>
        <p className="description">{p.description}</p>
        <div className="actions">
          <button type="button" className="button secondary small" onClick={props.onView}>
            {t('survey.view')}
          </button>
          <button type="button" className="button secondary small" onClick={props.onEdit}>
            <EditIcon /> {t('profile.edit')}
          </button>
          <button type="button" className="button danger-outline small" onClick={props.onDelete}>
            <TrashIcon /> {t('survey.delete')}
          </button>
        </div>
      </div>
    </li>
  );
}

function ProductDetails({ db, product: p, onClose }: { db: LocalDb; product: Product; onClose(): void }) {
  const { t } = useTranslation();
  const f = fieldsOf(p);
  return (
    <Modal title={p.title} closeLabel={t('admin.close')} onClose={onClose}>
      <div className="photo-strip">
        {f.images.map((hash) => (
          <Photo key={hash} db={db} hash={hash} size={320} alt="" />
        ))}
      </div>
      <dl className="details compact">
        <div>
          <dt>{t('products.fields.category')}</dt>
          <dd>{t(`market.category.${f.category}`)}</dd>
        </div>
        <div>
          <dt>{t('market.stock')}</dt>
          <dd>{t('market.in_stock', { count: p.quantity, unit: t(`market.units.${f.unit}`) })}</dd>
        </div>
        <div>
          <dt>{t('products.fields.price')}</dt>
          <dd>{formatMoney(f.price)}</dd>
        </div>
        <div>
          <dt>{t('products.fields.current_price')}</dt>
          <dd>{formatMoney(f.current_price)}</dd>
        </div>
        <div>
          <dt>{t('market.harvested')}</dt>
          <dd>{formatDay(f.harvest_date) || t('profile.not_provided')}</dd>
        </div>
        <div>
          <dt>{t('market.expires')}</dt>
          <dd>{formatDay(f.expiry_date) || t('profile.not_provided')}</dd>
        </div>
        {p.created_at && (
          <div>
            <dt>{t('survey.created')}</dt>
            <dd>{formatDate(p.created_at, 'time')}</dd>
          </div>
        )}
        {typeof p.updated_at === 'string' && (
          <div>
            <dt>{t('profile.last_updated')}</dt>
            <dd>{formatDate(p.updated_at, 'time')}</dd>
          </div>
        )}
      </dl>
      <p>{f.description}</p>
    </Modal>
  );
}

interface FormValues {
  title: string;
  description: string;
  category: string;
  unit: string;
  quantity: string;
  price: string;
  current_price: string;
  status: string;
  harvest_date: string;
  expiry_date: string;
  certifications: string[];
  tags: string;
  shipping_available: boolean;
  shipping_cost: string;
  shipping_days: string;
  min_order: string;
  max_order: string;
  images: string[];
}

function initial(p: Product | undefined): FormValues {
  const f = p ? fieldsOf(p) : undefined;
  return {
    title: f?.title ?? '',
    description: f?.description ?? '',
    category: f?.category ?? 'vegetables',
    unit: f?.unit ?? 'kg',
    quantity: p ? String(p.quantity) : '',
    price: f ? f.price.toFixed(2) : '',
    current_price: f ? f.current_price.toFixed(2) : '',
    status: f?.status ?? 'active',
    harvest_date: f?.harvest_date ?? '',
    expiry_date: f?.expiry_date ?? '',
    certifications: f?.certifications ?? [],
    tags: (f?.tags ?? []).join(', '),
    shipping_available: f?.shipping_available ?? true,
    shipping_cost: f ? f.shipping_cost.toFixed(2) : '5.00',
    shipping_days: f?.shipping_days ?? '',
    min_order: f ? String(f.min_order) : '1',
    max_order: f?.max_order == null ? '' : String(f.max_order),
    images: f?.images ?? [],
  };
}

const MONEY = /^\d+(\.\d{1,2})?$/;

/** SPEC section 5, in order: title, description, quantity (whole, at least 1), prices (at least 0, two decimals). */
export function validateProduct(
  v: Pick<
    FormValues,
    'title' | 'description' | 'quantity' | 'price' | 'current_price' | 'harvest_date' | 'expiry_date'
  >,
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!v.title.trim()) problems.title = 'required';
  if (!v.description.trim()) problems.description = 'required';
  if (!/^\d+$/.test(v.quantity.trim()) || Number(v.quantity) < 1) problems.quantity = 'quantity_invalid';
  if (!MONEY.test(v.price.trim())) problems.price = 'price_invalid';
  if (!MONEY.test(v.current_price.trim())) problems.current_price = 'price_invalid';
  if (v.harvest_date && v.expiry_date && v.expiry_date < v.harvest_date) problems.expiry_date = 'expiry_before_harvest';
  return problems;
}

function toFields(v: FormValues): Partial<ProductFields> {
  const maxOrder = v.max_order.trim() === '' ? null : Number(v.max_order);
  return {
    title: v.title.trim(),
    description: v.description.trim(),
    category: v.category as ProductFields['category'],
    unit: v.unit as ProductFields['unit'],
    price: Number(v.price),
    current_price: Number(v.current_price),
    status: v.status as ProductFields['status'],
    harvest_date: v.harvest_date || null,
    expiry_date: v.expiry_date || null,
    certifications: v.certifications,
    tags: v.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
    shipping_available: v.shipping_available,
    shipping_cost: Number(v.shipping_cost || 0),
    shipping_days: v.shipping_days.trim() || null,
    min_order: Number(v.min_order || 1),
    max_order: maxOrder,
    images: v.images,
  };
}

function ProductForm({
  db,
  uid,
  existing,
  farmerId,
  onDone,
}: {
  db: LocalDb;
  uid: string;
  existing: Product | undefined;
  farmerId: number;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<FormValues>(() => initial(existing));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const text =
    (key: keyof FormValues) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      set(key, e.target.value as never);

  const pickPhotos = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    setPhotoProblem(null);
    for (const file of files) {
      const code = checkImage(file);
      if (code) {
        setPhotoProblem(code);
        continue;
      }
      if (values.images.length >= MAX_PHOTOS) {
        setPhotoProblem('too_many_images');
        break;
      }
      try {
        const hash = await keepPhoto(db, file);
        setValues((v) =>
          v.images.includes(hash) || v.images.length >= MAX_PHOTOS ? v : { ...v, images: [...v.images, hash] },
        );
      } catch {
        setPhotoProblem('image_invalid');
      }
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateProduct(values);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await saveProduct(db, uid, toFields(values), Number(values.quantity), farmerId);
      onDone();
    } catch {
      // The phone's storage refused it (full, or private mode): keep the form as typed.
      setProblems({ form: 'internal_error' });
      setSaving(false);
    }
  };

  const error = (field: string) =>
    problems[field] && (
      <p className="field-error" id={`product-${field}-error`}>
        {t(`errors.${problems[field]}`)}
      </p>
    );
  const field = (name: keyof FormValues, type: string, extra: Record<string, unknown> = {}) => (
    <div className={`field${problems[name] ? ' has-error' : ''}`}>
      <label htmlFor={`product-${name}`}>
        {t(`products.fields.${name}`)}
        {['title', 'description', 'quantity', 'price', 'current_price'].includes(name) && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {type === 'textarea' ? (
        <textarea
          id={`product-${name}`}
          rows={3}
          value={values[name] as string}
          onChange={text(name)}
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={problems[name] ? `product-${name}-error` : undefined}
        />
      ) : (
        <input
          id={`product-${name}`}
          type={type}
          value={values[name] as string}
          onChange={text(name)}
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={problems[name] ? `product-${name}-error` : undefined}
          {...extra}
        />
      )}
      {error(name)}
    </div>
  );

  return (
    <form className="card form product-form" onSubmit={submit} noValidate aria-labelledby="product-form-title">
      <h2 id="product-form-title">{existing ? t('products.edit_title') : t('products.new_title')}</h2>
      <ErrorBox
        messages={
          problems.form
            ? [t('common.section_failed')]
            : Object.keys(problems).length > 0
              ? [t('survey.check_form')]
              : []
        }
      />
      {field('title', 'text')}
      {field('description', 'textarea')}
      <div className="field-row two">
        <SelectField label={t('products.fields.category')} value={values.category} onChange={text('category')}>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`market.category.${c}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('products.fields.unit')} value={values.unit} onChange={text('unit')}>
          {(['kg', 'piece'] as const).map((u) => (
            <option key={u} value={u}>
              {t(`market.units.${u}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {field('quantity', 'number', { inputMode: 'numeric', min: 1, step: 1 })}
      <div className="field-row two">
        {field('price', 'number', { inputMode: 'decimal', min: 0, step: 0.01 })}
        {field('current_price', 'number', { inputMode: 'decimal', min: 0, step: 0.01 })}
      </div>
      <SelectField label={t('products.fields.status')} value={values.status} onChange={text('status')}>
        {(['active', 'inactive'] as const).map((s) => (
          <option key={s} value={s}>
            {t(`products.status.${s}`)}
          </option>
        ))}
      </SelectField>
      <div className="field-row two">
        {field('harvest_date', 'date')}
        {field('expiry_date', 'date')}
      </div>
      <fieldset className="choice">
        <legend>{t('market.certified')}</legend>
        {CERTIFICATIONS.map((c) => (
          <label key={c} className="checkbox">
            <input
              type="checkbox"
              checked={values.certifications.includes(c)}
              onChange={(e) =>
                set(
                  'certifications',
                  e.target.checked ? [...values.certifications, c] : values.certifications.filter((x) => x !== c),
                )
              }
            />
            <span>{t(`market.certifications.${c}`)}</span>
          </label>
        ))}
      </fieldset>
      {field('tags', 'text')}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={values.shipping_available}
          onChange={(e) => set('shipping_available', e.target.checked)}
        />
        <span>{t('products.fields.shipping_available')}</span>
      </label>
      {values.shipping_available && (
        <div className="field-row two">
          {field('shipping_cost', 'number', { inputMode: 'decimal', min: 0, step: 0.01 })}
          {field('shipping_days', 'text')}
        </div>
      )}
      <div className="field-row two">
        {field('min_order', 'number', { inputMode: 'decimal', min: 0, step: 0.5 })}
        {field('max_order', 'number', { inputMode: 'decimal', min: 0, step: 0.5 })}
      </div>
      <div className="field">
        <label htmlFor="product-photos">{t('products.fields.images')}</label>
        <input id="product-photos" type="file" accept="image/*" multiple onChange={(e) => void pickPhotos(e)} />
        <p className="hint">{t('products.photos_hint')}</p>
        {photoProblem && (
          <p className="field-error" role="alert">
            {t(`errors.${photoProblem}`)}
          </p>
        )}
        {values.images.length > 0 && (
          <ul className="photo-strip">
            {values.images.map((hash, index) => (
              <li key={hash}>
                <Photo db={db} hash={hash} size={320} alt={t('market.picture', { number: index + 1 })} />
                <button
                  type="button"
                  className="button danger-outline small"
                  onClick={() =>
                    set(
                      'images',
                      values.images.filter((h) => h !== hash),
                    )
                  }
                >
                  {t('common.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="button" disabled={saving}>
          {saving ? t('common.saving') : t('products.save')}
        </button>
        <button type="button" className="button secondary" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
