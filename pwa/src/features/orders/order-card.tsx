// One of the buyer's orders: number, date, status, total, each farmer's part
// with its lines; the timeline, the farmer's phone and the delivery details
// on demand; cancelling a part while it is processing; and, for an order the
// server refused because prices or stock changed, what changed and a way back
// to the cart at today's prices.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/dialog';
import { AlertIcon, ClockIcon, PinIcon } from '../../components/icons';
import { addToCart } from '../../lib/cart';
import { productTitle } from '../../lib/entities/products';
import { errorKey } from '../../lib/error-text';
import { formatDate, formatMoney, placeName } from '../../lib/format';
import { useFrancs } from '../../lib/entities/francs';
import type { LocalDb, OutboxEntry } from '../../lib/sync/local-db';
import {
  cancelReasonText,
  changePart,
  dropOrder,
  type ChangedLine,
  type Order,
  type OrderPart,
} from '../../lib/entities/orders';
import { paths } from '../../lib/paths';
import { OrderStatusBadge } from '../../components/order-status-badge';
import { PayNow } from '../../components/pay-now';
import { orderPaymentsPath } from '../../lib/payments';
import { ReviewForm } from './review-form';
import { UnpaidNote } from './unpaid-note';
import { OrderLines, OrderTimeline } from '../../components/order-lines';

const money = (cents: number) => formatMoney(cents / 100);

/** Digits only, for WhatsApp's link. */
const whatsapp = (phone: string) => `https://wa.me/${phone.replace(/\D/g, '')}`;

export function OrderCard({ db, order, entries }: { db: LocalDb; order: Order; entries: OutboxEntry[] }) {
  const { t, i18n } = useTranslation();
  const francs = useFrancs();
  const navigate = useNavigate();
  const [open, setOpen] = useState<'track' | 'contact' | 'details' | null>(null);
  const [cancelling, setCancelling] = useState<OrderPart | null>(null);
  const refused = entries.find((e) => e.state === 'rejected' && e.name === 'order.place');
  const waiting = entries.some((e) => e.state === 'queued');
  // Not yet answered by the server: no farmer has it, so it is not "processing" either.
  const unsent = entries.some((e) => e.state === 'queued' && e.name === 'order.place');
  const toggle = (what: 'track' | 'contact' | 'details') => setOpen((current) => (current === what ? null : what));

  const backToCart = async () => {
    for (const part of order.parts) {
      for (const line of part.lines) {
        const product = await db.products.where('id').equals(line.product_id).first();
        if (product && product.quantity > 0) addToCart(product, line.quantity);
      }
    }
    await dropOrder(db, order.uid);
    navigate(paths.cart);
  };

  const changed = (refused?.result?.details?.lines ?? []) as ChangedLine[];
  return (
    <li className="card order-card">
      <div className="order-head">
        <h2>{order.id ? t('orders.number', { id: order.id }) : t('orders.new_order')}</h2>
        <span className="muted">{formatDate(order.created_at, 'short')}</span>
        {refused ? (
          <span className="badge red">{t('orders.refused')}</span>
        ) : unsent ? (
          <span className="badge grey">{t('orders.status.waiting')}</span>
        ) : (
          <OrderStatusBadge status={order.status} />
        )}
        <strong>
          {money(order.total_cents)}
          {francs && <span className="francs">{francs.of(order.total_cents / 100)}</span>}
        </strong>
      </div>
      {order.payment_method === 'mobile_money' && !refused && (
        <div className="payment-line">
          <span className={order.payment_status === 'succeeded' ? 'badge green' : 'badge yellow'}>
            {t(`payments.order.${order.payment_status ?? 'unpaid'}`)}
          </span>
          {/* Kept while a payment is under way (its prompt stays when the pending state
              arrives by sync) and after one failed or expired, to try again. */}
          <UnpaidNote db={db} order={order} />
          {order.id && order.status !== 'cancelled' && order.payment_status !== 'succeeded' && (
            <PayNow
              db={db}
              path={orderPaymentsPath(order.id)}
              country={order.shipping_address.country}
              phone={order.shipping_address.phone}
              amountCents={order.total_cents}
            />
          )}
        </div>
      )}
      {waiting && (
        <p className="sync-note wait">
          <ClockIcon /> {t('orders.waiting')}
        </p>
      )}
      {refused && (
        <div className="sync-note bad" role="alert">
          <AlertIcon />
          <div>
            <p>{t(errorKey(refused.result?.code ?? 'order_changed'))}</p>
            <ul>
              {changed.map((line) => (
                <li key={line.product_id}>
                  {productTitle({ ...line, title: line.title ?? '' }, i18n.language)}:{' '}
                  {t(`orders.changed.${line.reason}`, {
                    from: money(line.seen_price_cents ?? 0),
                    to: money(line.price_cents ?? 0),
                    count: line.stock ?? 0,
                  })}
                </li>
              ))}
            </ul>
            <div className="actions">
              <button type="button" className="button small" onClick={() => void backToCart()}>
                {t('orders.back_to_cart')}
              </button>
              <button type="button" className="button secondary small" onClick={() => void dropOrder(db, order.uid)}>
                {t('orders.remove')}
              </button>
            </div>
          </div>
        </div>
      )}
      {order.parts.map((part) => (
        <section key={`${part.farmer.id}-${part.id}`} className="order-part">
          <p className="with-icon">
            <PinIcon /> {t('market.by', { name: part.farmer.name })}
            {part.farmer.location ? ` · ${placeName(part.farmer.location, t)}` : ''}
            {part.farmer.rating ? ` · ★ ${part.farmer.rating.toFixed(1)}` : ''}
            {order.parts.length > 1 && <OrderStatusBadge status={part.status} />}
          </p>
          <OrderLines lines={part.lines} />
          {part.status === 'processing' && part.accepted_at && <p className="muted">{t('orders.accepted')}</p>}
          {part.cancel_reason && (
            <p className="muted">{t('orders.cancel_reason', { reason: cancelReasonText(t, part.cancel_reason) })}</p>
          )}
          {part.status === 'delivered' &&
            part.lines.map((line) => (
              <ReviewForm key={line.product_id} productId={line.product_id} title={productTitle(line, i18n.language)} />
            ))}
          {part.status === 'processing' && part.id > 0 && !refused && (
            <button type="button" className="button danger-outline small" onClick={() => setCancelling(part)}>
              {order.parts.length > 1 ? t('orders.cancel_part') : t('orders.cancel')}
            </button>
          )}
        </section>
      ))}
      {!refused && (
        <div className="actions">
          <button
            type="button"
            className="button secondary small"
            aria-expanded={open === 'track'}
            onClick={() => toggle('track')}
          >
            {t('orders.track')}
          </button>
          <button
            type="button"
            className="button secondary small"
            aria-expanded={open === 'contact'}
            onClick={() => toggle('contact')}
          >
            {t('orders.contact')}
          </button>
          <button
            type="button"
            className="button secondary small"
            aria-expanded={open === 'details'}
            onClick={() => toggle('details')}
          >
            {t('orders.details')}
          </button>
        </div>
      )}
      {open === 'track' && <OrderTimeline events={order.events} />}
      {open === 'contact' && (
        <ul className="contact-list">
          {order.parts.map((part) => (
            <li key={part.farmer.id}>
              <strong>{part.farmer.name}</strong>{' '}
              {part.farmer.phone ? (
                <>
                  <a href={`tel:${part.farmer.phone}`}>{t('orders.call')}</a> ·{' '}
                  <a href={whatsapp(part.farmer.phone)} rel="noopener noreferrer" target="_blank">
                    WhatsApp
                  </a>
                </>
              ) : (
                <span className="muted">{t('orders.no_phone')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {open === 'details' && (
        <dl className="details">
          <div>
            <dt>{t('checkout.delivery')}</dt>
            <dd>{t(`checkout.delivery_${order.delivery}`)}</dd>
          </div>
          <div>
            <dt>{t('checkout.payment')}</dt>
            <dd>{t(`checkout.${order.payment_method}`)}</dd>
          </div>
          <div>
            <dt>{t('checkout.address')}</dt>
            <dd>
              {order.shipping_address.first_name} {order.shipping_address.last_name}, {order.shipping_address.address},{' '}
              {order.shipping_address.city} · {order.shipping_address.phone}
            </dd>
          </div>
          <div>
            <dt>{t('cart.subtotal')}</dt>
            <dd>{money(order.subtotal_cents)}</dd>
          </div>
          <div>
            <dt>{t('cart.shipping')}</dt>
            <dd>{money(order.shipping_cents)}</dd>
          </div>
        </dl>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        title={t('orders.cancel_title')}
        confirmLabel={t('orders.cancel')}
        cancelLabel={t('common.cancel')}
        danger
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          if (cancelling) void changePart(db, order, cancelling.id, 'cancelled');
          setCancelling(null);
        }}
      >
        <p>{t('orders.cancel_warning')}</p>
      </ConfirmDialog>
    </li>
  );
}
