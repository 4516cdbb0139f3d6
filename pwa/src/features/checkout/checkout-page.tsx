// Checkout (docs/orders.md): the shipping form prefilled from the account,
// delivery or pickup, how to pay, and the order as it will be charged. Place
// Order works with no signal: the order is queued on the phone and sent when
// the network is back; the server checks every price again before anything
// is charged.
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppPage } from '../../components/app-page';
import { ErrorBox, TextField, useIntoView, useRefusedForm } from '../../components/form';
import { AlertIcon, CheckIcon, ClockIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { COUNTRIES, type User } from '../../lib/account';
import { checkLines, clearCart, totals, useCart } from '../../lib/cart';
import { useCatalogue } from '../../lib/entities/catalogue';
import { errorKey, fieldProblems } from '../../lib/error-text';
import { formatMoney, STORE_DAYS, weekDays } from '../../lib/format';
import { MoneySummary } from '../../components/money-summary';
import { placeOrder, type Delivery, type PaymentMethod } from '../../lib/entities/orders';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useCatalogueDb, useLocalDb } from '../../lib/sync/provider';
import { useChangeState } from '../../lib/sync/use-outbox';
import type { ShippingInput } from '../../lib/sync/protocol';
import { looksLikeEmail } from '../../lib/validation';
import { usePageHead } from '../../lib/page-head';
import { productTitle } from '../../lib/entities/products';
import { CountryField } from '../../components/country-field';
import { inLanguage, offered, usePublicSettings } from '../../lib/settings';

// The email is optional: a buyer may have signed up with a phone number only (docs/decisions.md).
const CHECKED = ['first_name', 'last_name', 'email', 'phone', 'address', 'city'] as const;

function prefill(user: User | null): ShippingInput {
  return {
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    email: user?.email ?? '',
    phone: user?.phone_number ?? '',
    address: user?.location ?? '',
    city: '',
    postal_code: '',
    country: user?.country ?? 'DRC',
  };
}

/** The form's checks in the server's order, as error codes (what is collected needs no address). */
export function checkShipping(form: ShippingInput, delivered = true): string[] {
  const codes: string[] = [];
  for (const field of CHECKED) {
    if (!delivered && (field === 'address' || field === 'city')) continue;
    const value = form[field].trim();
    if (!value) {
      if (field !== 'email') codes.push(`${field}_required`);
    } else if (field === 'email' && !looksLikeEmail(value)) codes.push('email_invalid');
  }
  if (!(COUNTRIES as readonly string[]).includes(form.country)) codes.push('country_required');
  return codes;
}

export function CheckoutPage() {
  usePageHead('checkout');
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const db = useLocalDb();
  const cart = useCart();
  const catalogue = useCatalogue(useCatalogueDb());
  const [form, setForm] = useState<ShippingInput>(() => prefill(user));
  // Not chosen yet: delivered, but a lot is collected unless the buyer asks otherwise.
  const [delivery, setDelivery] = useState<Delivery | null>(null);
  const [payment, setPayment] = useState<PaymentMethod>('cash_on_delivery');
  const settings = usePublicSettings();
  const [problems, setProblems] = useState<string[]>([]);
  // A refused form scrolls to its first invalid field and focuses it (the phone's screen
  // was on the button, the error two screens up).
  const { form: formRef, refused } = useRefusedForm();
  const invalid = fieldProblems({ codes: problems }, t, [...CHECKED, 'country']);
  const [processing, setProcessing] = useState(false);
  const [placed, setPlaced] = useState<{ uid: string; payment: PaymentMethod } | null>(null);
  // What the order's queue entry says, not whether the phone believes it is online.
  const sent = useChangeState(db, placed?.uid ?? null, 'order.place');

  if (placed) {
    return (
      <AppPage back={paths.marketplace} backLabel={t('nav.marketplace')}>
        <section className="page narrow">
          <Placed>
            {sent === 'refused' ? <AlertIcon /> : sent === 'sent' ? <CheckIcon /> : <ClockIcon />}
            <h1>
              {sent === 'refused'
                ? t('checkout.refused_title')
                : sent === 'sent'
                  ? t('checkout.placed_title')
                  : t('checkout.saved_title')}
            </h1>
            <p>
              {sent === 'refused'
                ? t('checkout.refused_body')
                : sent === 'sent'
                  ? t('checkout.placed_body')
                  : t('checkout.placed_offline')}
            </p>
            {placed.payment === 'mobile_money' && sent !== 'refused' && <p>{t('checkout.pay_from_orders')}</p>}
            <div className="actions">
              <Link className="button" to={paths.orders}>
                {t('checkout.view_orders')}
              </Link>
              <Link className="button secondary" to={paths.marketplace}>
                {t('cart.continue')}
              </Link>
            </div>
          </Placed>
        </section>
      </AppPage>
    );
  }
  if (cart.items.length === 0) return <Navigate to={paths.cart} replace />;

  const lines = checkLines(cart, catalogue);
  const live = lines.filter((l) => l.available);
  const sum = totals(live);
  // A cooperative's lot is collected at its store on its days (docs/cooperatives.md), or
  // delivered when its cooperative says so: one lot collected only, and the whole order is.
  const lotsIn = [
    ...new Map(
      live.flatMap((l) => (l.item.product.lot ? [l.item.product.lot] : [])).map((lot) => [lot.cooperative_id, lot]),
    ).values(),
  ];
  const collectedOnly = live.some((l) => l.item.product.lot && !l.item.product.shipping_available);
  const how: Delivery = collectedOnly ? 'pickup' : (delivery ?? (lotsIn.length > 0 ? 'pickup' : 'delivery'));
  const shipping = how === 'pickup' ? 0 : sum.shipping;
  // Only the ways of paying the delivery country offers (docs/settings.md).
  const methods = (['mobile_money', 'cash_on_delivery'] as const).filter((m) => offered(settings, form.country, m));
  const chosen = methods.includes(payment) ? payment : methods[0];
  const blocked = lines.some((l) => !l.available || l.short) || !chosen;
  const policy = settings && inLanguage(settings.shipping_policy, i18n.resolvedLanguage);
  const set = (field: keyof ShippingInput) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkShipping(form, how === 'delivery');
    setProblems(found);
    if (found.length > 0) refused();
    if (found.length > 0 || blocked || !db || !chosen) return;
    setProcessing(true);
    try {
      const uid = await placeOrder(db, live, form, how, chosen);
      clearCart();
      setPlaced({ uid, payment: chosen });
    } catch {
      // The phone's storage refused the order: nothing was queued, the form stays as typed.
      setProblems(['storage_failed']);
      refused();
    } finally {
      setProcessing(false);
    }
  };

  return (
    <AppPage back={paths.cart} backLabel={t('nav.cart')}>
      <section className="page checkout-page" aria-labelledby="checkout-title">
        <h1 id="checkout-title">{t('checkout.title')}</h1>
        <form ref={formRef} className="cart-layout" onSubmit={submit} noValidate>
          <div className="card form">
            <h2>{t('checkout.shipping')}</h2>
            <ErrorBox messages={problems.map((code) => t(errorKey(code)))} />
            <div className="field-row">
              <TextField
                label={t('fields.first_name')}
                value={form.first_name}
                onChange={set('first_name')}
                error={invalid.first_name}
                required
                autoComplete="given-name"
              />
              <TextField
                label={t('fields.last_name')}
                value={form.last_name}
                onChange={set('last_name')}
                error={invalid.last_name}
                required
                autoComplete="family-name"
              />
            </div>
            <TextField
              label={t('fields.email_optional')}
              type="email"
              value={form.email}
              onChange={set('email')}
              error={invalid.email}
              autoComplete="email"
            />
            <TextField
              label={t('fields.phone_number')}
              type="tel"
              value={form.phone}
              onChange={set('phone')}
              error={invalid.phone}
              required
              autoComplete="tel"
            />
            {how === 'delivery' && (
              <>
                <TextField
                  label={t('checkout.address')}
                  value={form.address}
                  onChange={set('address')}
                  error={invalid.address}
                  required
                  autoComplete="street-address"
                />
                <div className="field-row">
                  <TextField
                    label={t('checkout.city')}
                    value={form.city}
                    onChange={set('city')}
                    error={invalid.city}
                    required
                    autoComplete="address-level2"
                  />
                  <TextField
                    label={t('checkout.postal_code')}
                    value={form.postal_code}
                    onChange={set('postal_code')}
                    autoComplete="postal-code"
                  />
                </div>
              </>
            )}
            <CountryField value={form.country} onChange={set('country')} required error={invalid.country} />
            <fieldset className="choices">
              <legend>{t('checkout.delivery')}</legend>
              {lotsIn.map((lot) => (
                <p key={lot.cooperative_id} className="notice">
                  {t('checkout.lot_pickup', {
                    place: lot.pickup,
                    coop: lot.cooperative_name,
                    days: weekDays(lot.pickup_days ?? STORE_DAYS, t),
                  })}
                </p>
              ))}
              {how === 'pickup' && lotsIn.length > 0 && live.some((l) => !l.item.product.lot) && (
                <p className="hint">{t('checkout.lot_pickup_rest')}</p>
              )}
              {!collectedOnly &&
                (['delivery', 'pickup'] as const).map((choice) => (
                  <label key={choice} className="checkbox">
                    <input type="radio" name="delivery" checked={how === choice} onChange={() => setDelivery(choice)} />
                    {t(lotsIn.length > 0 ? `checkout.delivery_lot_${choice}` : `checkout.delivery_${choice}`)}
                  </label>
                ))}
              {policy && (
                <details className="hint">
                  <summary>{t('checkout.shipping_policy')}</summary>
                  <p className="pre-line">{policy}</p>
                </details>
              )}
            </fieldset>
            <fieldset className="choices">
              <legend>{t('checkout.payment')}</legend>
              {methods.map((choice) => (
                <label key={choice} className="checkbox">
                  <input type="radio" name="payment" checked={chosen === choice} onChange={() => setPayment(choice)} />
                  {t(`checkout.${choice}`)}
                </label>
              ))}
              <p className="hint">
                {!chosen
                  ? t('checkout.no_payment')
                  : chosen === 'mobile_money'
                    ? t('checkout.mobile_note')
                    : t('checkout.cash_note')}
              </p>
            </fieldset>
          </div>
          <aside className="card cart-summary" aria-labelledby="checkout-summary">
            <h2 id="checkout-summary">{t('checkout.summary')}</h2>
            <ul className="summary-lines">
              {lines.map(({ item, price, available, short, stock }) => (
                <li key={item.id}>
                  <span>
                    {productTitle(item.product, i18n.resolvedLanguage)} × {item.quantity}
                  </span>
                  <span>{formatMoney(price * item.quantity)}</span>
                  {(!available || short) && (
                    <p className="sync-note bad">
                      <AlertIcon /> {available ? t('cart.short', { count: stock }) : t('cart.unavailable')}
                    </p>
                  )}
                </li>
              ))}
            </ul>
            <MoneySummary subtotal={sum.subtotal} shipping={shipping} />
            {blocked && (
              <p className="hint">
                <Link to={paths.cart}>{t('checkout.fix_cart')}</Link>
              </p>
            )}
            {!db ? (
              <Spinner label={t('common.loading')} />
            ) : (
              <button type="submit" className="button wide" disabled={processing || blocked}>
                {processing ? t('checkout.processing') : t('checkout.place_order')}
              </button>
            )}
          </aside>
        </form>
      </section>
    </AppPage>
  );
}

/** What took the form's place, brought into view (the phone was on the button, at the bottom). */
function Placed({ children }: { children: ReactNode }) {
  const shown = useIntoView<HTMLDivElement>();
  return (
    <div ref={shown} tabIndex={-1} className="card success-panel" role="status">
      {children}
    </div>
  );
}
