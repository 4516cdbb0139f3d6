// "Pay now" on a mobile-money order: the operator (the order's country's)
// and the number that pays; then the prompt on the phone, followed until
// the operator answers. Online only: the buttons say so when offline.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { Spinner } from '../../components/spinner';
import { errorMessages } from '../../lib/error-text';
import { formatMoney } from '../../lib/format';
import type { LocalDb } from '../../lib/local-db';
import type { Order } from '../../lib/orders';
import {
  fetchOperators,
  isSettled,
  latestPayment,
  startPayment,
  type Operator,
  type Payment,
} from '../../lib/payments';
import { syncNow } from '../../lib/sync-engine';

const POLL_MS = 2000;

export function PayNow({ db, order }: { db: LocalDb; order: Order }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [operators, setOperators] = useState<Operator[] | null>(null);
  const [operator, setOperator] = useState('');
  const [phone, setPhone] = useState(order.shipping_address.phone);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open || operators) return;
    fetchOperators(order.shipping_address.country).then((list) => {
      setOperators(list);
      setOperator((current) => current || list[0]?.id || '');
    }, setProblem);
  }, [open, operators, order.shipping_address.country]);

  // Follow the prompt until the operator answers, then pull the order again.
  useEffect(() => {
    if (!payment || isSettled(payment.status) || !order.id) return;
    const timer = window.setTimeout(() => {
      latestPayment(order.id!).then((latest) => {
        setPayment(latest);
        if (latest && isSettled(latest.status)) void syncNow(db);
      }, setProblem);
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [payment, order.id, db]);

  if (!order.id) return null;
  if (payment && !isSettled(payment.status)) {
    return (
      <p className="sync-note wait" role="status">
        {t('payments.check_phone', { amount: formatMoney(payment.amount_cents / 100) })}
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="button small" onClick={() => setOpen(true)} disabled={!navigator.onLine}>
        {navigator.onLine ? t('payments.pay_now') : t('payments.pay_online')}
      </button>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      setPayment(await startPayment(order.id!, operator, phone));
      setProblem(null);
    } catch (caught) {
      setProblem(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card form pay-now" onSubmit={submit}>
      <ErrorBox messages={problem ? errorMessages(problem, t, 'payments.failed_to_start') : []} />
      {payment && isSettled(payment.status) && payment.status !== 'succeeded' && (
        <p className="sync-note bad">{t(`payments.status.${payment.status}`)}</p>
      )}
      {operators === null ? (
        <Spinner label={t('common.loading')} />
      ) : (
        <SelectField
          label={t('payments.operator')}
          value={operator}
          onChange={(e) => setOperator(e.target.value)}
          required
        >
          {operators.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </SelectField>
      )}
      <TextField
        label={t('payments.phone')}
        type="tel"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        required
        autoComplete="tel"
      />
      <button type="submit" className="button" disabled={busy || !operator}>
        {busy ? t('checkout.processing') : t('payments.pay_amount', { amount: formatMoney(order.total_cents / 100) })}
      </button>
    </form>
  );
}
