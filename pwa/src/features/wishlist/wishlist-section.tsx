// The buyer's Wishlist: their favourite products with the price and stock the phone
// has now, to add to the cart or remove, with or without a signal.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HeartIcon, TrashIcon } from '../../components/icons';
import { Price, ProductImage, QuickAdd, StockLine, useDataSaver } from '../../components/product-parts';
import { Spinner } from '../../components/spinner';
import { removeFavourite, useFavouriteProducts, type Favourite } from '../../lib/entities/favourites';
import { paths } from '../../lib/paths';
import { productTitle } from '../../lib/entities/products';
import { useCatalogueDb } from '../../lib/sync/provider';

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
  return (
    <li className="card cart-line">
      <ProductImage src={p.image_urls[0]?.thumbnail_url} alt="" width={96} height={72} saveData={saveData} />
      <div className="cart-line-body">
        <h3>
          <Link to={paths.product(p.id!)}>{title}</Link>
        </h3>
        <Price product={p} />
        <StockLine product={p} />
        <div className="actions">
          <QuickAdd product={p} title={title} />
          {remove}
        </div>
      </div>
    </li>
  );
}
