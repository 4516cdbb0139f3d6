// Subtotal, shipping and total, as the cart and the checkout show them.
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../lib/format';

export function MoneySummary({ subtotal, shipping }: { subtotal: number; shipping: number }) {
  const { t } = useTranslation();
  return (
    <dl className="summary">
      <div>
        <dt>{t('cart.subtotal')}</dt>
        <dd>{formatMoney(subtotal)}</dd>
      </div>
      <div>
        <dt>{t('cart.shipping')}</dt>
        <dd>{formatMoney(shipping)}</dd>
      </div>
      <div className="total">
        <dt>{t('cart.total')}</dt>
        <dd>{formatMoney(subtotal + shipping)}</dd>
      </div>
    </dl>
  );
}
