// Subtotal, shipping and total, as the cart and the checkout show them; in the DRC
// also the total's estimate in Congolese francs, with the rate and its date.
import { useTranslation } from 'react-i18next';
import { formatDay, formatMoney } from '../lib/format';
import { formatFrancs, useFrancs, type Francs } from '../lib/entities/francs';

export function MoneySummary({ subtotal, shipping }: { subtotal: number; shipping: number }) {
  const { t } = useTranslation();
  const francs = useFrancs();
  return (
    <>
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
        {francs && (
          <div className="francs-total">
            <dt>{t('money.in_francs')}</dt>
            <dd>{francs.of(subtotal + shipping)}</dd>
          </div>
        )}
      </dl>
      {francs && <RateNote francs={francs} />}
    </>
  );
}

/** "Estimate at 2 850 FC for one US dollar, the rate of 20 November 2026. …" */
export function RateNote({ francs }: { francs: Francs }) {
  const { t } = useTranslation();
  return (
    <p className="muted rate-note">
      {t('money.estimate_note', {
        rate: formatFrancs(francs.rate.francs_per_usd),
        date: formatDay(francs.rate.as_of),
      })}
    </p>
  );
}
