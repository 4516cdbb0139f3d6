// The farmer's Orders section (docs/orders.md): new orders first, with the
// buyer's delivery details and the lines to prepare; accept or decline a new
// one, then ship, deliver, or cancel with a reason. Works with no signal: each step is queued on the
// phone and sent when the network is back; the stock follows on the server.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { ReceiptIcon } from '../../components/icons';
import { OrderStatusBadge } from '../../components/order-status-badge';
import { Spinner } from '../../components/spinner';
import { formatDate, formatMoney } from '../../lib/format';
import type { LocalDb } from '../../lib/sync/local-db';
import { cancelReasonText, changePart, useOrders, type Order, type OrderPart } from '../../lib/entities/orders';
import { useOutbox } from '../../lib/sync/use-outbox';
import { OrderLines } from '../../components/order-lines';

const money = (cents: number) => formatMoney(cents / 100);

/** The next step a farmer takes on a part, by its status and how it travels: a new
 * part is accepted (or declined) first, as on the basic phone's menu. */
function nextStep(order: Order, part: OrderPart): 'accepted' | 'shipped' | 'delivered' | null {
  if (part.status === 'processing' && !part.accepted_at) return 'accepted';
  if (part.status === 'processing') return order.delivery === 'pickup' ? 'delivered' : 'shipped';
  if (part.status === 'shipped') return 'delivered';
  return null;
}

/** `farmerId`: the seller (the farmer, or a cooperative its manager sells for, `title` naming it). */
export function SalesSection({ db, farmerId, title }: { db: LocalDb; farmerId: number; title?: string }) {
  const { t } = useTranslation();
  const heading = useId();
  const orders = useOrders(db);
  const outbox = useOutbox(db);
  const [cancelling, setCancelling] = useState<{ order: Order; part: OrderPart; declining: boolean } | null>(null);
  const [reason, setReason] = useState('');
  if (!orders) return <Spinner label={t('common.loading')} />;
  const sales = orders
    .flatMap((order) => order.parts.filter((p) => p.farmer.id === farmerId).map((part) => ({ order, part })))
    // New orders first: what needs doing before what is done.
    .sort((a, b) => Number(a.part.status !== 'processing') - Number(b.part.status !== 'processing'));
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{title ?? t('sales.title')}</h2>
      {sales.length === 0 ? (
        <div className="card empty-state">
          <ReceiptIcon />
          <p>{t('sales.empty')}</p>
        </div>
      ) : (
        <ul className="order-list">
          {sales.map(({ order, part }) => {
            const step = nextStep(order, part);
            const waiting = outbox.some((e) => e.uid === order.uid && e.state === 'queued');
            const a = order.shipping_address;
            return (
              <li key={`${order.uid}-${part.id}`} className="card order-card">
                <div className="order-head">
                  <h3>{order.id ? t('orders.number', { id: order.id }) : t('orders.new_order')}</h3>
                  <span className="muted">{formatDate(order.created_at, 'short')}</span>
                  <OrderStatusBadge status={part.status} />
                  {part.status === 'processing' && part.accepted_at && (
                    <span className="muted">{t('sales.accepted')}</span>
                  )}
                  <strong>{money(part.subtotal_cents + part.shipping_cents)}</strong>
                </div>
                {waiting && <p className="sync-note wait">{t('orders.waiting')}</p>}
                <p className="muted">
                  {order.payment_method === 'cash_on_delivery'
                    ? t('checkout.cash_on_delivery')
                    : `${t('checkout.mobile_money')} · ${t(`payments.order.${order.payment_status ?? 'unpaid'}`)}`}
                </p>
                <p>
                  <strong>
                    {a.first_name} {a.last_name}
                  </strong>{' '}
                  · <a href={`tel:${a.phone}`}>{a.phone}</a>
                  <br />
                  {order.delivery === 'pickup'
                    ? t('sales.pickup')
                    : `${a.address}, ${a.city}${a.postal_code ? ` ${a.postal_code}` : ''}, ${t(`countries.${a.country as 'DRC'}`)}`}
                </p>
                <OrderLines lines={part.lines} />
                {part.cancel_reason && (
                  <p className="muted">
                    {t('orders.cancel_reason', { reason: cancelReasonText(t, part.cancel_reason) })}
                  </p>
                )}
                <div className="actions">
                  {step && (
                    <button
                      type="button"
                      className="button small"
                      onClick={() => void changePart(db, order, part.id, step)}
                    >
                      {t(`sales.mark_${step}`)}
                    </button>
                  )}
                  {(part.status === 'processing' || part.status === 'shipped') && (
                    <button
                      type="button"
                      className="button danger-outline small"
                      onClick={() => {
                        setReason('');
                        setCancelling({ order, part, declining: step === 'accepted' });
                      }}
                    >
                      {t(step === 'accepted' ? 'sales.decline' : 'orders.cancel')}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {cancelling && (
        <Modal
          title={t(cancelling.declining ? 'sales.decline_title' : 'orders.cancel_title')}
          closeLabel={t('common.cancel')}
          onClose={() => setCancelling(null)}
          actions={
            <button
              type="button"
              className="button danger"
              disabled={!reason.trim()}
              onClick={() => {
                void changePart(db, cancelling.order, cancelling.part.id, 'cancelled', reason.trim());
                setCancelling(null);
              }}
            >
              {t(cancelling.declining ? 'sales.decline' : 'orders.cancel')}
            </button>
          }
        >
          <label className="field">
            {t('sales.reason')}
            <textarea value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} required />
          </label>
        </Modal>
      )}
    </section>
  );
}
