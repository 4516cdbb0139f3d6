// The buyer's Wishlist: their favourite products with the price and stock the phone
// has now, to add to the cart or remove, with or without a signal.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CartIcon, HeartIcon, TrashIcon } from '../../components/icons';
import { Price, ProductImage, unitCounted, useDataSaver } from '../../components/product-parts';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { addToCart } from '../../lib/cart';
import { orderRange } from '../../lib/catalogue';
import { removeFavourite, useFavouriteProducts, type Favourite } from '../../lib/favourites';
import { paths } from '../../lib/paths';
import { productTitle } from '../../lib/products';
import { useCatalogueDb } from '../../lib/sync-provider';

export function WishlistSection() {
  const { t } = useTranslation();
  // The catalogue on the phone gives each favourite its price and stock as they are now.
  const db = useCatalogueDb();
  const favourites = useFavouriteProducts(db);
  if (!db || !favourites) return <Spinner label={t('common.loading')} />;
  return (
    <section aria-labelledby="wishlist-title">
      <h2 id="wishlist-title">{t('dashboard.sections.wishlist')}</h2>
      {favourites.length === 0 ? (
        <div className="card empty-note">
          <HeartIcon />
          <p>{t('wishlist.empty')}</p>
          <Link className="button" to={paths.marketplace}>
            {t('wishlist.browse')}
          </Link>
        </div>
      ) : (
        <ul className="wishlist cart-lines">
          {favourites.map((favourite) => (
            <WishlistLine
              key={favourite.uid}
              favourite={favourite}
              onRemove={() => removeFavourite(db, favourite.uid)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function WishlistLine({ favourite, onRemove }: { favourite: Favourite; onRemove(): Promise<void> }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [saveData] = useDataSaver();
  const p = favourite.product;
  const remove = (
    <button type="button" className="button secondary small" onClick={() => void onRemove()}>
      <TrashIcon /> {t('common.remove')}
    </button>
  );
  if (!p) {
    return (
      <li className="card cart-line">
        <p className="muted">{t('wishlist.gone')}</p>
        {remove}
      </li>
    );
  }
  const title = productTitle(p, i18n.resolvedLanguage);
  const [least, most] = orderRange(p);
  const soldOut = p.quantity <= 0 || least > most;
  return (
    <li className="card cart-line">
      <ProductImage src={p.image_urls[0]?.thumbnail_url} alt="" width={96} height={72} saveData={saveData} />
      <div className="cart-line-body">
        <h3>
          <Link to={paths.product(p.id!)}>{title}</Link>
        </h3>
        <Price product={p} />
        <p className="muted">
          {t('market.by', { name: p.farmer.name })} ·{' '}
          {soldOut
            ? t('market.sold_out')
            : t('market.in_stock', { count: p.quantity, unit: unitCounted(t, p.unit, p.quantity) })}
        </p>
        <div className="actions">
          <button
            type="button"
            className="button small"
            disabled={soldOut}
            onClick={() => {
              addToCart(p, least);
              toast('success', t('market.added', { title }));
            }}
          >
            <CartIcon /> {t('market.add_to_cart')}
          </button>
          {remove}
        </div>
      </div>
    </li>
  );
}
