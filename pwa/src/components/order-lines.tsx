// An order part's lines (the product's name in the reader's language, quantity and unit ×
// unit price, line total) and an order's timeline: the same on the buyer's, the farmer's
// and the admin's screens.
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney } from '../lib/format';
import type { OrderEvent, OrderLine } from '../lib/entities/orders';
import { productTitle } from '../lib/entities/products';

const money = (cents: number) => formatMoney(cents / 100);

export function OrderLines({ lines }: { lines: OrderLine[] }) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="order-lines">
      {lines.map((line) => (
        <li key={line.product_id}>
          <span>{productTitle(line, i18n.language)}</span>
          <span className="muted">
            {line.quantity} {t(`market.units_counted.${line.unit}`, { count: line.quantity })} ×{' '}
            {money(line.unit_price_cents)}
          </span>
          <span>{money(line.line_total_cents)}</span>
        </li>
      ))}
    </ul>
  );
}

export function OrderTimeline({ events }: { events: OrderEvent[] }) {
  const { t } = useTranslation();
  return (
    <ol className="timeline">
      {events.map((event, index) => (
        <li key={index}>
          <strong>{t(`orders.events.${event.kind}`)}</strong>{' '}
          <time dateTime={event.at}>{formatDate(event.at, 'time')}</time>
          {event.note ? <span className="muted"> · {event.note}</span> : null}
        </li>
      ))}
    </ol>
  );
}
