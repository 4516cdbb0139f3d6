// The admin's Orders section (docs/orders.md): counts by status that
// filter, search (buyer or farmer), payment and period filters, the list a
// page at a time, an order's details with its timeline, and the CSV export.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { ErrorBox, SelectField } from '../../components/form';
import { OrderStatusBadge } from '../../components/order-status-badge';
import { Pager } from '../../components/pager';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { errorMessages } from '../../lib/error-text';
import { formatDate, formatMoney } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { cancelReasonText, PART_STATUSES, type Order } from '../../lib/entities/orders';
import { answerPrompt, failureText, fetchPrompts, orderPayments, type Prompt } from '../../lib/payments';
import { fetchOrders, orderQuery, type OrderFilters, type OrderPage } from './api';
import { FilterBar, ListPending, useAdminList } from './admin-list';
import { OrderLines, OrderTimeline } from '../../components/order-lines';

const PERIODS = ['all', 'today', 'week', 'month'] as const;
const money = (cents: number) => formatMoney(cents / 100);

export function AdminOrders() {
  const { t } = useTranslation();
  const list = useAdminList<OrderFilters, OrderPage>(
    { q: '', status: '', payment_method: '', payment: '', period: 'all' },
    fetchOrders,
  );
  const [open, setOpen] = useState<Order | null>(null);
  const { filters, setFilter, setPage, result, error } = list;
  const { status, payment_method, payment, period } = filters;
  const load = list.reload;

  if (!result) return <ListPending error={error} failedKey="admin.orders.load_failed" retry={() => void load()} />;

  return (
    <div className="admin-screen">
      <Prompts onAnswered={() => void load()} />
      <div className="stat-cards">
        <StatCard
          label={t('orders.tabs.all')}
          value={result.stats.total}
          active={status === ''}
          onClick={() => setFilter('status', '')}
        />
        {PART_STATUSES.map((s) => (
          <StatCard
            key={s}
            label={t(`orders.status.${s}`)}
            value={result.stats[s]}
            active={status === s}
            onClick={() => setFilter('status', s)}
          />
        ))}
      </div>
      <FilterBar
        search={{
          value: filters.q,
          placeholder: t('admin.orders.search_placeholder'),
          onChange: (q) => setFilter('q', q),
        }}
        exportPath={`/admin/orders/export?${orderQuery(list.asked, { lang: currentLanguage() })}`}
      >
        <SelectField
          label={t('admin.orders.payment_method')}
          value={payment_method}
          onChange={(e) => setFilter('payment_method', e.target.value as OrderFilters['payment_method'])}
        >
          <option value="">{t('admin.orders.all_methods')}</option>
          <option value="cash_on_delivery">{t('checkout.cash_on_delivery')}</option>
          <option value="mobile_money">{t('checkout.mobile_money')}</option>
        </SelectField>
        <SelectField
          label={t('admin.orders.payment_state')}
          value={payment}
          onChange={(e) => setFilter('payment', e.target.value as OrderFilters['payment'])}
        >
          <option value="">{t('admin.orders.all_states')}</option>
          {(['unpaid', 'pending', 'succeeded', 'failed', 'expired'] as const).map((p) => (
            <option key={p} value={p}>
              {t(`admin.orders.payment_states.${p}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('admin.apps.period')}
          value={period}
          onChange={(e) => setFilter('period', e.target.value as OrderFilters['period'])}
        >
          {PERIODS.map((p) => (
            <option key={p} value={p}>
              {t(`admin.apps.periods.${p}`)}
            </option>
          ))}
        </SelectField>
      </FilterBar>
      {error !== null && <ErrorBox messages={errorMessages(error, t, 'admin.orders.load_failed')} />}
      {result.data.length === 0 ? (
        <p className="card empty-note">{t('orders.empty')}</p>
      ) : (
        <div className="table-wrap card">
          <table className="data-table stacked">
            <thead>
              <tr>
                <th scope="col">{t('admin.orders.columns.id')}</th>
                <th scope="col">{t('admin.orders.columns.buyer')}</th>
                <th scope="col">{t('admin.orders.columns.farmer')}</th>
                <th scope="col">{t('admin.orders.columns.status')}</th>
                <th scope="col">{t('cart.total')}</th>
                <th scope="col">{t('admin.orders.columns.placed')}</th>
                <th scope="col">{t('admin.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {result.data.map((o) => (
                <tr key={o.uid}>
                  <td>
                    <strong>#{o.id}</strong>
                  </td>
                  <td data-label={t('admin.orders.columns.buyer')}>
                    {o.shipping_address.first_name} {o.shipping_address.last_name}
                    <br />
                    <span className="muted">{o.shipping_address.email}</span>
                  </td>
                  <td data-label={t('admin.orders.columns.farmer')}>{o.parts.map((p) => p.farmer.name).join(', ')}</td>
                  <td>
                    <OrderStatusBadge status={o.status} />
                  </td>
                  <td data-label={t('cart.total')}>{money(o.total_cents)}</td>
                  <td data-label={t('admin.orders.columns.placed')}>{formatDate(o.created_at, 'short')}</td>
                  <td>
                    <button type="button" className="button secondary small" onClick={() => setOpen(o)}>
                      {t('admin.view')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={result} onPage={setPage} />
      {open && <OrderDetails order={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function OrderDetails({ order, onClose }: { order: Order; onClose(): void }) {
  const { t } = useTranslation();
  const a = order.shipping_address;
  return (
    <Modal title={t('orders.number', { id: order.id })} closeLabel={t('admin.close')} onClose={onClose}>
      <dl className="details">
        <div>
          <dt>{t('admin.orders.columns.buyer')}</dt>
          <dd>
            {a.first_name} {a.last_name} · {a.email} · {a.phone}
          </dd>
        </div>
        <div>
          <dt>{t('checkout.delivery')}</dt>
          <dd>
            {t(`checkout.delivery_${order.delivery}`)} · {a.address}, {a.city}
          </dd>
        </div>
        <div>
          <dt>{t('checkout.payment')}</dt>
          <dd>{t(`checkout.${order.payment_method}`)}</dd>
        </div>
        <div>
          <dt>{t('cart.total')}</dt>
          <dd>
            {money(order.subtotal_cents)} + {money(order.shipping_cents)} = {money(order.total_cents)}
          </dd>
        </div>
      </dl>
      {order.parts.map((part) => (
        <section key={part.id} className="order-part">
          <p>
            <strong>{part.farmer.name}</strong> <OrderStatusBadge status={part.status} />
          </p>
          <OrderLines lines={part.lines} />
          {part.cancel_reason && (
            <p className="muted">{t('orders.cancel_reason', { reason: cancelReasonText(t, part.cancel_reason) })}</p>
          )}
        </section>
      ))}
      {order.payment_method === 'mobile_money' && order.id !== undefined && <PaymentHistory orderId={order.id} />}
      <h3>{t('orders.track')}</h3>
      <OrderTimeline events={order.events} />
    </Modal>
  );
}

/** An order's mobile-money payments and each one's steps. */
function PaymentHistory({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const [payments, setPayments] = useState<Awaited<ReturnType<typeof orderPayments>> | null>(null);
  useEffect(() => {
    orderPayments(orderId).then(setPayments, () => setPayments([]));
  }, [orderId]);
  if (!payments) return <Spinner label={t('common.loading')} />;
  return (
    <section>
      <h3>{t('checkout.payment')}</h3>
      {payments.length === 0 ? (
        <p className="muted">{t('payments.order.unpaid')}</p>
      ) : (
        payments.map((p) => (
          <div key={p.id}>
            <p>
              <strong>{t(`admin.orders.payment_states.${p.status === 'initiating' ? 'pending' : p.status}`)}</strong> ·{' '}
              {p.operator_name} · {p.phone} · {formatMoney(p.amount_cents / 100)}
              {p.status === 'failed' ? ` · ${failureText(t, p.failure_reason)}` : ''}
              {p.simulated && (
                <>
                  {' '}
                  · <strong>{t('payments.simulated')}</strong>
                </>
              )}
            </p>
            <ol className="timeline">
              {p.events.map((e, index) => (
                <li key={index}>
                  {t(`payments.status.${e.status}`)} <span className="muted">({e.source})</span>{' '}
                  <time dateTime={e.at}>{formatDate(e.at, 'time')}</time>
                </li>
              ))}
            </ol>
          </div>
        ))
      )}
    </section>
  );
}

/** The simulator's phone prompts waiting for an answer: in the demo, the admin plays the payer. */
function Prompts({ onAnswered }: { onAnswered(): void }) {
  const { t } = useTranslation();
  const [prompts, setPrompts] = useState<Prompt[]>([]);
  const refresh = useCallback(() => {
    fetchPrompts().then(setPrompts, () => setPrompts([]));
  }, []);
  useEffect(() => {
    refresh();
  }, [refresh]);
  if (prompts.length === 0) return null;
  const answer = async (id: string, approve: boolean) => {
    await answerPrompt(id, approve).catch(() => undefined);
    refresh();
    onAnswered();
  };
  return (
    <section className="card" aria-labelledby="prompts-title">
      <h2 id="prompts-title">{t('admin.orders.prompts')}</h2>
      <p className="hint">{t('admin.orders.prompts_note')}</p>
      <ul className="order-lines">
        {prompts.map((p) => (
          <li key={p.payment_id}>
            <span>
              {p.phone} · {p.operator}
            </span>
            <strong>{formatMoney(p.amount_cents / 100)}</strong>
            <span className="actions">
              <button type="button" className="button small" onClick={() => void answer(p.payment_id, true)}>
                {t('admin.orders.approve')}
              </button>
              <button
                type="button"
                className="button danger-outline small"
                onClick={() => void answer(p.payment_id, false)}
              >
                {t('admin.orders.refuse')}
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
