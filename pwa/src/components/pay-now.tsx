// "Pay now" by mobile money, for an order or a course (`path`: its payments):
// the operator and the number that pays (the operators of the number's country once
// an international number is typed, else of the account's); then the prompt on the
// phone, followed until the operator answers, and a sync to pull what the payment
// changed. Online only: the button says so when offline.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField, TextField } from './form';
import { Spinner } from './spinner';
import { errorMessages } from '../lib/error-text';
import { formatMoney } from '../lib/format';
import type { LocalDb } from '../lib/sync/local-db';
import {
  failureText,
  fetchOperators,
  operatorOfNumber,
  isSettled,
  latestPayment,
  startPayment,
  type Operator,
  type Payment,
} from '../lib/payments';
import { syncNow } from '../lib/sync/engine';
import { countryOfNumber } from '../lib/validation';

const POLL_MS = 2000;

export function PayNow({
  db,
  path,
  country,
  phone: payerPhone,
  amountCents,
}: {
  db: LocalDb;
  /** The payments of what is paid for: `/orders/{id}/payments` or `/courses/{id}/payments`. */
  path: string;
  /** Whose operators to offer while the number typed does not say another country. */
  country: string;
  /** The number to suggest. */
  phone: string;
  amountCents: number;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [phone, setPhone] = useState(payerPhone);
  // A Rwandan account paying from a Congolese number gets Congo's operators.
  const payingFrom = countryOfNumber(phone) ?? country;
  const [operators, setOperators] = useState<{ country: string; list: Operator[] } | null>(null);
  const [operator, setOperator] = useState('');
  const [payment, setPayment] = useState<Payment | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open || operators?.country === payingFrom) return;
    fetchOperators(payingFrom).then((list) => {
      setOperators({ country: payingFrom, list });
      setOperator((current) => (list.some((o) => o.id === current) ? current : list[0]?.id || ''));
    }, setProblem);
  }, [open, operators, payingFrom]);

  // The number names its operator where the country's plan says it (the server refuses another).
  const guessed = operators ? operatorOfNumber(operators.list, phone, payingFrom) : undefined;
  useEffect(() => {
    if (guessed) setOperator(guessed.id);
  }, [guessed]);

  // Follow the prompt until the operator answers, then pull what it changed.
  useEffect(() => {
    if (!payment || isSettled(payment.status)) return;
    const timer = window.setTimeout(() => {
      latestPayment(path).then((latest) => {
        setPayment(latest);
        if (latest && isSettled(latest.status)) void syncNow(db);
      }, setProblem);
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [payment, path, db]);

  if (payment?.status === 'succeeded') {
    return (
      <p className="sync-note ok" role="status">
        {t('payments.status.succeeded')}
        {payment.simulated && ` · ${t('payments.simulated')}`}
      </p>
    );
  }
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
      setPayment(await startPayment(path, operator, phone));
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
      {payment && isSettled(payment.status) && (
        <p className="sync-note bad" role="alert">
          {t(`payments.status.${payment.status}`)}:{' '}
          {failureText(t, payment.status === 'expired' ? 'expired' : payment.failure_reason)}
        </p>
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
          {operators.list.map((o) => (
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
        {busy ? t('checkout.processing') : t('payments.pay_amount', { amount: formatMoney(amountCents / 100) })}
      </button>
    </form>
  );
}
