// After a refused or expired mobile-money payment (docs/payments.md): until when the
// order keeps its stock for the buyer, who may pay again (the form below it) or pay
// on delivery instead.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox } from '../../components/form';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import type { LocalDb } from '../../lib/sync/local-db';
import type { Order } from '../../lib/entities/orders';
import { syncNow } from '../../lib/sync/engine';

export function UnpaidNote({ db, order }: { db: LocalDb; order: Order }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  if (!order.unpaid_until || !order.id) return null;
  const payOnDelivery = async () => {
    setBusy(true);
    try {
      await api(`/orders/${order.id}/cash-on-delivery`, { method: 'POST' });
      setProblem(null);
      await syncNow(db);
    } catch (caught) {
      setProblem(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="unpaid-note">
      <p className="sync-note wait" role="status">
        {t('orders.unpaid_kept', { time: formatDate(order.unpaid_until, 'time') })}
      </p>
      <ErrorBox messages={problem ? errorMessages(problem, t, 'orders.pay_on_delivery_failed') : []} />
      <button
        type="button"
        className="button small secondary"
        onClick={payOnDelivery}
        disabled={busy || !navigator.onLine}
      >
        {t('orders.pay_on_delivery')}
      </button>
    </div>
  );
}
