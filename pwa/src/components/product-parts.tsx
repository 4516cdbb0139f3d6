// Pieces the marketplace, product and cart pages share.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatMoney } from '../lib/format';
import { useFrancs } from '../lib/entities/francs';
import type { Product } from '../lib/entities/products';
import { addToCart } from '../lib/cart';
import { orderRange } from '../lib/entities/catalogue';
import { pictureSet } from '../lib/picture-sizes';
import { CartIcon } from './icons';
import { useToast } from './toast';

const DATA_SAVER_KEY = 'mavuno.data_saver';

/** A unit as a count of it reads: "1 piece", "200 pieces" (plural forms of each language). */
export function unitCounted(t: TFunction, unit: Product['unit'], count: number): string {
  return t(`market.units_counted.${unit}`, { count });
}

/** "Save data: no pictures until asked", kept on the device; on by default when the browser asks to save data. */
export function useDataSaver(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => {
    const stored = localStorage.getItem(DATA_SAVER_KEY);
    if (stored !== null) return stored === '1';
    const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
    return connection?.saveData === true;
  });
  const set = (next: boolean) => {
    localStorage.setItem(DATA_SAVER_KEY, next ? '1' : '0');
    setOn(next);
  };
  return [on, set];
}

/**
 * A picture at the size the place needs; with data saver on, a button that loads it.
 * What a phone without signal can still show: when `src` cannot be loaded (offline,
 * not cached), the smaller `fallback` the list cards cached, else a placeholder drawn
 * here; never a broken-image icon.
 */
export function ProductImage(props: {
  src: string | undefined;
  /** A smaller size of the same picture, likely in the cache already. */
  fallback?: string;
  alt: string;
  width: number;
  height: number;
  saveData: boolean;
  /** The page's main (or first) picture, likely its largest content: fetched at once, first. */
  priority?: boolean;
  /** How wide the page draws it (`PICTURE_WIDTHS`): a phone then fetches the 720 px file. */
  sizes?: string;
  /** A product's category: with no photo at all, a drawing of it stands in (features/marketplace/marketplace.css). */
  category?: string;
}) {
  // A new picture starts over from its own address.
  return <PictureWithFallback key={props.src} {...props} />;
}

function PictureWithFallback(props: Parameters<typeof ProductImage>[0]) {
  const { src, fallback, alt, width, height, saveData, priority, sizes, category } = props;
  const { t } = useTranslation();
  const [asked, setAsked] = useState(false);
  const [failed, setFailed] = useState(0);
  const shape = { aspectRatio: `${width} / ${height}` };
  // Offline, the size the browser chose may not be cached when another is: each in turn.
  const srcSet = sizes ? pictureSet(src) : undefined;
  const tries = [srcSet && { src, srcSet }, src && { src }, fallback && { src: fallback }].filter((x) => !!x);
  const current = tries[failed];
  if (!current)
    return (
      <div
        className="product-image placeholder"
        style={shape}
        data-category={src ? undefined : category}
        {...(src && alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      />
    );
  if (saveData && !asked) {
    return (
      <button
        type="button"
        className="product-image placeholder show-picture"
        style={shape}
        onClick={() => setAsked(true)}
      >
        {t('market.show_picture')}
      </button>
    );
  }
  return (
    <img
      key={failed}
      className="product-image"
      sizes={current.srcSet && sizes}
      srcSet={current.srcSet}
      src={current.src}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onError={() => setFailed((n) => n + 1)}
    />
  );
}

/** The rating as stars and a figure; "No reviews yet" when nobody rated it (not five
 * empty stars and 0.0, which read as a bad rating). */
export function Stars({ rating, reviews }: { rating: number; reviews: number }) {
  const { t } = useTranslation();
  if (reviews === 0) return <span className="stars none">{t('market.no_reviews')}</span>;
  const full = Math.round(rating);
  return (
    <span className="stars" role="img" aria-label={t('market.rating', { rating: rating.toFixed(1), count: reviews })}>
      <span aria-hidden="true">
        {'★'.repeat(full)}
        {'☆'.repeat(5 - full)}
      </span>
      <span className="muted" aria-hidden="true">
        {' '}
        {rating.toFixed(1)} ({reviews})
      </span>
    </span>
  );
}

/** "$1.20 / kg", the original price struck through when it was higher, and francs in the DRC. */
export function Price({ product }: { product: Pick<Product, 'price' | 'current_price' | 'unit'> }) {
  const { t } = useTranslation();
  const francs = useFrancs();
  return (
    <span className="price">
      <strong>{formatMoney(product.current_price)}</strong>
      <span className="muted"> / {t(`market.units.${product.unit}`)}</span>
      {/* A discount only: a raised price is just the price. */}
      {product.current_price < product.price && (
        <del className="muted was-price" aria-label={t('market.was', { price: formatMoney(product.price) })}>
          {formatMoney(product.price)}
        </del>
      )}
      {francs && <span className="francs">{francs.of(product.current_price)}</span>}
    </span>
  );
}

/** Who sells it and how much is left, as a card says it. */
export function StockLine({ product: p }: { product: Product }) {
  const { t } = useTranslation();
  const [least, most] = orderRange(p);
  const soldOut = p.quantity <= 0 || least > most;
  return (
    <p className="muted">
      {t('market.by', { name: p.farmer.name })} ·{' '}
      {soldOut
        ? t('market.sold_out')
        : t('market.in_stock', { count: p.quantity, unit: unitCounted(t, p.unit, p.quantity) })}
    </p>
  );
}

/** A card's quick add: the least the farmer sells (their minimum order), said in a toast. */
export function QuickAdd({ product: p, title }: { product: Product; title: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [least, most] = orderRange(p);
  return (
    <button
      type="button"
      className="button small"
      disabled={p.quantity <= 0 || least > most}
      onClick={() => {
        addToCart(p, least);
        toast('success', t('market.added', { title }));
      }}
    >
      <CartIcon /> {t('market.add_to_cart')}
    </button>
  );
}
