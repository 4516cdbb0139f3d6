// Paying a member by mobile money (docs/cooperatives.md, Payouts): nothing moves before
// the manager has seen who is paid, on which number and operator, how much (all that is
// owed, or a part) and the fee; the operator is taken from the number where the
// country's plan says it, and the manager is told when it cannot be. What was typed stays
// when the server refuses it.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField, TextField, useFormSend } from '../../components/form';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { formatMoney } from '../../lib/format';
import { fetchOperators, operatorOfNumber, type Operator } from '../../lib/payments';
import { countryOfNumber, nationalNumber } from '../../lib/validation';
import { payMember, type Account } from '../../lib/entities/cooperatives';

/** "47,5" or "47.50" as cents; undefined when it is not an amount. */
function cents(typed: string): number | undefined {
  const text = typed.trim().replace(',', '.');
  return /^\d+(\.\d{1,2})?$/.test(text) ? Math.round(Number(text) * 100) : undefined;
}

export function MobilePayout({
  account,
  phone,
  cooperativeId,
  uid,
  onSent,
  onCancel,
}: {
  account: Account;
  /** The member's own number, when known. */
  phone: string | undefined;
  cooperativeId: number;
  /** The payout's uid: a resent request is the same payout. */
  uid: string;
  onSent: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [number, setNumber] = useState(phone ?? '');
  const country = countryOfNumber(number) ?? 'DRC';
  const [operators, setOperators] = useState<Operator[] | null>(null);
  const [operator, setOperator] = useState('');
  const [amount, setAmount] = useState((account.owed_cents / 100).toFixed(2));
  const { problem, setProblem, busy, form, send } = useFormSend();
  const errors = fieldProblems(problem, t, ['phone', 'operator', 'amount']);
  const guessed = operators ? operatorOfNumber(operators, number, country) : undefined;

  useEffect(() => {
    let current = true;
    fetchOperators(country).then(
      (list) => current && setOperators(list),
      (error: unknown) => current && setProblem({ error }),
    );
    return () => {
      current = false;
    };
  }, [country, setProblem]);
  // The number names its operator: it is chosen for the manager (who may still change it);
  // a number that does not is left for the manager to ask about.
  useEffect(() => {
    setOperator(guessed?.id ?? '');
  }, [guessed]);

  const chosen = operators?.find((o) => o.id === operator);
  const paid = cents(amount);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const codes = [
      ...(nationalNumber(number, country) ? [] : ['phone_invalid']),
      ...(!chosen ? ['operator_invalid'] : guessed && guessed.id !== chosen.id ? ['operator_not_of_number'] : []),
      ...(paid === undefined || paid < 1 || paid > account.owed_cents ? ['more_than_owed'] : []),
    ];
    const sent = await send(codes, () =>
      payMember(cooperativeId, {
        uid,
        member_id: account.member_id,
        method: 'mobile_money',
        operator,
        phone: number.trim(),
        amount_cents: paid,
      }),
    );
    if (sent) await onSent();
  };

  return (
    <form ref={form} className="stack payout-form" onSubmit={(event) => void submit(event)} noValidate>
      <h4>{t('cooperative.money.confirm_title', { name: account.member_name })}</h4>
      <ErrorBox messages={problemMessages(problem, t, 'cooperative.action_failed')} />
      <TextField
        label={t('cooperative.money.number')}
        type="tel"
        inputMode="tel"
        value={number}
        onChange={(event) => setNumber(event.target.value)}
        error={errors.phone}
      />
      <SelectField
        label={t('cooperative.money.operator')}
        value={operator}
        onChange={(event) => setOperator(event.target.value)}
        error={errors.operator}
      >
        <option value="">{t('cooperative.money.choose_operator')}</option>
        {(operators ?? []).map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </SelectField>
      {nationalNumber(number, country) && operators && (
        <p className="muted">
          {guessed
            ? t('cooperative.money.operator_of_number', { operator: guessed.name })
            : t('cooperative.money.operator_unknown')}
        </p>
      )}
      <TextField
        label={t('cooperative.money.amount', { owed: formatMoney(account.owed_cents / 100) })}
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        error={errors.amount}
      />
      <p className="muted">{t('cooperative.money.no_fee')}</p>
      {chosen && paid !== undefined && paid >= 1 && paid <= account.owed_cents && (
        <p className="notice" role="status">
          {t('cooperative.money.summary', {
            amount: formatMoney(paid / 100),
            name: account.member_name,
            number: number.trim(),
            operator: chosen.name,
          })}
        </p>
      )}
      <span className="actions">
        <button type="submit" className="button small" disabled={busy}>
          {t('cooperative.money.send')}
        </button>
        <button type="button" className="button secondary small" onClick={onCancel}>
          {t('cooperative.cancel')}
        </button>
      </span>
    </form>
  );
}
