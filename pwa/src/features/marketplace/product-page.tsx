// One product (docs/product.md, Screens, "Product detail"), from the catalogue on the device.
import { memo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';
import { useCatalogueDb, useLocalDb } from '../../lib/sync/provider';
import { PriceRangeHint } from '../../components/price-range';
import { CartIcon, HeartIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatDay, formatMoney, placeName } from '../../lib/format';
import { addToCart } from '../../lib/cart';
import { productDescription, productTitle, type Product } from '../../lib/entities/products';
import { useProduct } from '../../lib/entities/catalogue';
import { useFavourite } from '../../lib/entities/favourites';
import { Price, ProductImage, Stars, useDataSaver, unitCounted } from '../../components/product-parts';
import { orderRange } from '../../lib/entities/catalogue';
import { Stepper } from '../../components/stepper';
import { RateNote } from '../../components/money-summary';
import { useFrancs } from '../../lib/entities/francs';
import { ProductReviews } from './product-reviews';
import { PICTURE_WIDTHS } from '../../lib/picture-sizes';
import { LotDetails } from '../../components/lot-note';

export function ProductPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const db = useCatalogueDb();
  const product = useProduct(db, Number(id));
  usePageHead(
    'product',
    product === undefined
      ? 'loading'
      : product && {
          title: productTitle(product, i18n.resolvedLanguage),
          description: productDescription(product, i18n.resolvedLanguage),
        },
  );
  if (product === undefined) return <Spinner label={t('market.loading')} />;
  if (product === null || product.status !== 'active') {
    return (
      <section className="page narrow coming-soon">
        <h1>{t('market.not_found')}</h1>
        <Link className="button" to={paths.marketplace}>
          {t('market.back')}
        </Link>
      </section>
    );
  }
  return <ProductDetails product={product} />;
}

// Not drawn again when only the page's sync state moves (a first pull's end).
/** How it reaches the buyer: collected (a lot at its cooperative's store), or shipped for a cost. */
function Shipping({ product: p }: { product: Product }) {
  const { t } = useTranslation();
  const cost = formatMoney(p.shipping.cost);
  if (!p.shipping.available) return t(p.lot ? 'market.collect_lot' : 'market.collect');
  if (p.lot) return t('cooperative.lot_delivers', { cost });
  return p.shipping.estimated_days ? t('market.shipping_cost', { cost, days: p.shipping.estimated_days }) : cost;
}

const ProductDetails = memo(function ProductDetails({ product: p }: { product: Product }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const title = productTitle(p, i18n.resolvedLanguage);
  const navigate = useNavigate();
  const [saveData] = useDataSaver();
  const francs = useFrancs();
  const [picture, setPicture] = useState(0);
  const [favourite, toggleFavourite] = useFavourite(useLocalDb(), p.uid);
  const [low, high] = orderRange(p);
  const [quantity, setQuantity] = useState(low);
  const canOrder = high >= low;
  const add = () => {
    addToCart(p, quantity);
    toast('success', t('market.added', { title }));
  };
  return (
    <article className="page product-page">
      <nav className="breadcrumb" aria-label={t('market.breadcrumb')}>
        <Link to={paths.marketplace}>{t('market.title')}</Link> › <span>{t(`market.category.${p.category}`)}</span> ›{' '}
        <span aria-current="page">{title}</span>
      </nav>
      <div className="product-layout">
        <div className="gallery">
          <ProductImage
            src={p.image_urls[picture]?.url}
            fallback={p.image_urls[picture]?.thumbnail_url}
            alt={title}
            width={1024}
            height={768}
            saveData={saveData}
            priority
            sizes={PICTURE_WIDTHS.product}
            category={p.category}
          />
          {p.image_urls.length > 1 && (
            <div className="thumbnails">
              {p.image_urls.map((image, index) => (
                <button
                  key={image.url}
                  type="button"
                  aria-pressed={index === picture}
                  aria-label={t('market.picture', { number: index + 1 })}
                  onClick={() => setPicture(index)}
                >
                  <ProductImage src={image.thumbnail_url} alt="" width={80} height={60} saveData={saveData} />
                </button>
              ))}
            </div>
          )}
        </div>
        <div className="product-info">
          <div className="product-title">
            <h1>{title}</h1>
            <button
              type="button"
              className="icon-button favourite"
              aria-pressed={favourite}
              aria-label={t(favourite ? 'market.unfavourite' : 'market.favourite')}
              onClick={toggleFavourite}
            >
              <HeartIcon />
            </button>
          </div>
          <Stars rating={p.rating} reviews={p.reviews} />
          <p className="big-price">
            <Price product={p} />
          </p>
          {francs && <RateNote francs={francs} />}
          <PriceRangeHint
            name={[p.title, p.title_en, p.title_fr, p.title_sw].filter(Boolean).join(' ')}
            unit={p.unit}
            place={p.farmer.location}
            price={p.current_price}
          />
          <p>{productDescription(p, i18n.resolvedLanguage)}</p>
          {p.lot && <LotDetails lot={p.lot} lang={i18n.resolvedLanguage ?? 'en'} />}
          <section className="card farmer-card" aria-label={t('market.farmer')}>
            <span className="initial" aria-hidden="true">
              {p.farmer.name.slice(0, 1)}
            </span>
            <div>
              <strong>{p.farmer.name}</strong>
              {p.farmer.verified && <span className="badge green">{t('market.verified')}</span>}
              <p className="muted">
                {[
                  p.farmer.location && placeName(p.farmer.location, t),
                  p.farmer.rating > 0 ? `★ ${p.farmer.rating.toFixed(1)}` : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            </div>
          </section>
          <dl className="details compact">
            {p.harvest_date && (
              <div>
                <dt>{t('market.harvested')}</dt>
                <dd>{formatDay(p.harvest_date)}</dd>
              </div>
            )}
            {p.expiry_date && (
              <div>
                <dt>{t('market.expires')}</dt>
                <dd>{formatDay(p.expiry_date)}</dd>
              </div>
            )}
            <div>
              <dt>{t('market.shipping')}</dt>
              <dd>
                <Shipping product={p} />
              </dd>
            </div>
            <div>
              <dt>{t('market.stock')}</dt>
              <dd>
                {p.quantity > 0
                  ? t('market.in_stock', { count: p.quantity, unit: unitCounted(t, p.unit, p.quantity) })
                  : t('market.sold_out')}
              </dd>
            </div>
            {p.certifications.length > 0 && (
              <div>
                <dt>{t('market.certified')}</dt>
                <dd>{p.certifications.map((c) => t(`market.certifications.${c}`)).join(', ')}</dd>
              </div>
            )}
          </dl>
          {canOrder ? (
            <>
              <Stepper label={t('market.quantity')} value={quantity} min={low} max={high} onChange={setQuantity} />
              <p className="hint">
                {t('market.order_range', { min: low, max: high, unit: unitCounted(t, p.unit, high) })}
              </p>
              <div className="actions">
                <button type="button" className="button" onClick={add}>
                  <CartIcon /> {t('market.add_to_cart')}
                </button>
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => {
                    addToCart(p, quantity);
                    navigate(paths.cart);
                  }}
                >
                  {t('market.buy_now')}
                </button>
              </div>
            </>
          ) : (
            <p className="muted">{t('market.sold_out')}</p>
          )}
          {p.tags.length > 0 && (
            <ul className="tags">
              {p.tags.map((tag) => (
                <li key={tag}>#{tag}</li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {p.id !== undefined && <ProductReviews productId={p.id} />}
    </article>
  );
});
