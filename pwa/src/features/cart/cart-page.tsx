// The cart (docs/product.md, Screens and Statuses). Lines are checked against the catalogue
// on the device, so a changed price or stock is shown before checkout.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { useCatalogueDb } from '../../lib/sync/provider';
import { AlertIcon, CartIcon, TrashIcon } from '../../components/icons';
import { formatMoney } from '../../lib/format';
import { MoneySummary } from '../../components/money-summary';
import { useSession } from '../../lib/session';
import { useCatalogue } from '../../lib/entities/catalogue';
import { Stepper } from '../../components/stepper';
import { checkLines, clearCart, removeFromCart, setQuantity, totals, useCart } from '../../lib/cart';
import { unitCounted } from '../../components/product-parts';
import { usePageHead } from '../../lib/page-head';
import { productTitle } from '../../lib/entities/products';

/** docs/product.md, Constants: the cart clears after half a second, showing "Clearing...". */
export const CLEAR_DELAY_MS = 500;

export function CartPage() {
  usePageHead('cart');
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const cart = useCart();
  const catalogue = useCatalogue(useCatalogueDb());
  const [clearing, setClearing] = useState(false);

  if (cart.items.length === 0) {
    return (
      <section className="page narrow coming-soon">
        <CartIcon />
        <h1>{t('cart.empty')}</h1>
        <Link className="button" to={paths.marketplace}>
          {t('cart.continue')}
        </Link>
      </section>
    );
  }
  const lines = checkLines(cart, catalogue);
  const sum = totals(lines);
  const clear = () => {
    setClearing(true);
    window.setTimeout(() => {
      clearCart();
      setClearing(false);
    }, CLEAR_DELAY_MS);
  };
  return (
    <section className="page cart-page" aria-labelledby="cart-title">
      <h1 id="cart-title">{t('cart.title')}</h1>
      <div className="cart-layout">
        <ul className="cart-lines">
          {lines.map(({ item, price, available, priceChanged, short, stock }) => (
            <li key={item.id} className="card cart-line">
              {item.product.image ? (
                <img src={item.product.image} alt="" width={96} height={72} loading="lazy" />
              ) : (
                <div className="product-image placeholder" />
              )}
              <div className="cart-line-body">
                <h2>
                  <Link to={paths.product(item.id)}>{productTitle(item.product, i18n.resolvedLanguage)}</Link>
                </h2>
                <p className="muted">{t('market.by', { name: item.product.farmer.name })}</p>
                <p>
                  {formatMoney(price)} / {t(`market.units.${item.product.unit}`)} ·{' '}
                  {t('market.in_stock', { count: stock, unit: unitCounted(t, item.product.unit, stock) })}
                </p>
                {!available && (
                  <p className="sync-note bad">
                    <AlertIcon /> {t('cart.unavailable')}
                  </p>
                )}
                {priceChanged && (
                  <p className="sync-note wait">
                    <AlertIcon /> {t('cart.price_changed', { from: formatMoney(item.price), to: formatMoney(price) })}
                  </p>
                )}
                {short && (
                  <p className="sync-note wait">
                    <AlertIcon /> {t('cart.short', { count: stock })}
                  </p>
                )}
                <div className="cart-line-actions">
                  <Stepper
                    label={t('market.quantity')}
                    value={item.quantity}
                    min={1}
                    max={Math.max(1, stock)}
                    onChange={(q) => setQuantity(item.id, q)}
                  />
                  <strong>{formatMoney(price * item.quantity)}</strong>
                  <button type="button" className="button danger-outline small" onClick={() => removeFromCart(item.id)}>
                    <TrashIcon /> {t('cart.remove')}
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
        <aside className="card cart-summary" aria-labelledby="cart-summary">
          <h2 id="cart-summary">{t('cart.summary')}</h2>
          <MoneySummary subtotal={sum.subtotal} shipping={sum.shipping} />
          <p className="hint">{t('cart.shipping_note')}</p>
          {user ? (
            <button type="button" className="button wide" onClick={() => navigate(paths.checkout)}>
              {t('cart.checkout')}
            </button>
          ) : (
            <>
              <button
                type="button"
                className="button wide"
                onClick={() => navigate(paths.login, { state: { from: paths.cart } })}
              >
                {t('cart.login_to_checkout')}
              </button>
              <p className="hint">{t('cart.login_note')}</p>
            </>
          )}
          <button type="button" className="button secondary wide" onClick={clear} disabled={clearing}>
            {clearing ? t('cart.clearing') : t('cart.clear')}
          </button>
        </aside>
      </div>
    </section>
  );
}
