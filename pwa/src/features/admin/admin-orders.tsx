// The admin's Orders section (docs/orders.md): counts by status that
// filter, search (buyer or farmer), payment and period filters, the list a
// page at a time, an order's details with its timeline, and the CSV export.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { DownloadIcon } from '../../components/icons';
import { OrderStatusBadge } from '../../components/order-status-badge';
import { Pager } from '../../components/pager';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { useToast } from '../../components/toast';
import { download } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import { formatDate, formatMoney } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { PART_STATUSES, type Order } from '../../lib/orders';
import { fetchOrders, orderQuery, type OrderFilters, type OrderPage } from './api';
import { useDebounced } from './use-debounced';

const PERIODS = ['all', 'today', 'week', 'month'] as const;
const money = (cents: number) => formatMoney(cents / 100);

export function AdminOrders() {
  const { t } = useTranslation();
  const toast = useToast();
  const [filters, setFilters] = useState<OrderFilters>({ q: '', status: '', payment_method: '', period: 'all' });
  const q = useDebounced(filters.q);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<OrderPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<Order | null>(null);
  const [exporting, setExporting] = useState(false);

  const { status, payment_method, period } = filters;
  const load = useCallback(async () => {
    try {
      setResult(await fetchOrders({ q, status, payment_method, period }, page));
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [q, status, payment_method, period, page]);

  useEffect(() => {
    void load();
  }, [load]);

  const setFilter = <K extends keyof OrderFilters>(key: K, value: OrderFilters[K]) => {
    setPage(1);
    setFilters((current) => ({ ...current, [key]: value }));
  };

  const exportCsv = async () => {
    if (result?.total === 0) {
      toast('error', t('errors.no_orders'));
      return;
    }
    setExporting(true);
    try {
      await download(
        `/admin/orders/export?${orderQuery({ q, status, payment_method, period }, { lang: currentLanguage() })}`,
      );
    } catch (caught) {
      toast('error', errorMessages(caught, t, 'admin.export_failed')[0]!);
    } finally {
      setExporting(false);
    }
  };

  if (error && !result) {
    return (
      <section className="card coming-soon" role="alert">
        <h2>{t('admin.orders.load_failed')}</h2>
        <p>{errorMessages(error, t, 'admin.orders.load_failed')[0]}</p>
        <button type="button" className="button" onClick={() => void load()}>
          {t('common.try_again')}
        </button>
      </section>
    );
  }
  if (!result) return <Spinner label={t('common.loading')} />;

  return (
    <div className="admin-screen">
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
      <div className="card filters">
        <TextField
          label={t('admin.search')}
          type="search"
          placeholder={t('admin.orders.search_placeholder')}
          value={filters.q}
          onChange={(e) => setFilter('q', e.target.value)}
        />
        <SelectField
          label={t('checkout.payment')}
          value={payment_method}
          onChange={(e) => setFilter('payment_method', e.target.value as OrderFilters['payment_method'])}
        >
          <option value="">{t('admin.orders.all_payments')}</option>
          <option value="cash_on_delivery">{t('checkout.cash_on_delivery')}</option>
          <option value="mobile_money">{t('checkout.mobile_money')}</option>
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
        <div className="filter-actions">
          <button type="button" className="button secondary" onClick={() => void exportCsv()} disabled={exporting}>
            <DownloadIcon /> {exporting ? t('admin.exporting') : t('admin.export')}
          </button>
        </div>
      </div>
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
      <Pager
        page={result.page}
        pages={Math.max(1, Math.ceil(result.total / result.per_page))}
        total={result.total}
        perPage={result.per_page}
        onPage={setPage}
      />
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
          <ul className="order-lines">
            {part.lines.map((line) => (
              <li key={line.product_id}>
                <span>{line.title}</span>
                <span className="muted">
                  {line.quantity} × {money(line.unit_price_cents)}
                </span>
                <span>{money(line.line_total_cents)}</span>
              </li>
            ))}
          </ul>
          {part.cancel_reason && <p className="muted">{t('orders.cancel_reason', { reason: part.cancel_reason })}</p>}
        </section>
      ))}
      <h3>{t('orders.track')}</h3>
      <ol className="timeline">
        {order.events.map((event, index) => (
          <li key={index}>
            <strong>{t(`orders.events.${event.kind}`)}</strong>{' '}
            <time dateTime={event.at}>{formatDate(event.at, 'time')}</time>
            {event.note ? <span className="muted"> · {event.note}</span> : null}
          </li>
        ))}
      </ol>
    </Modal>
  );
}
