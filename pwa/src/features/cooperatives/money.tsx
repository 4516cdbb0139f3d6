// A cooperative's money for its managers (docs/cooperatives.md, Payouts): what its lots
// brought, each member's shares, what was paid and what is owed; paying a member in cash
// (they receive a code by SMS to give back once the money is in their hand) or by mobile
// money; the accounts as a spreadsheet. Paying needs a signal: what is owed is the server's.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField } from '../../components/form';
import { ExportButton } from '../../components/export-button';
import { errorMessages } from '../../lib/error-text';
import { formatMoney } from '../../lib/format';
import {
  cancelPayout,
  confirmPayout,
  payMember,
  type Account,
  type Books,
  type Cooperative,
  type Membership,
  type Payout,
} from '../../lib/entities/cooperatives';
import { MobilePayout } from './payout-form';
import { currentLanguage } from '../../lib/i18n';

const money = (cents: number) => formatMoney(cents / 100);

export function CooperativeMoney({
  cooperative,
  books,
  payouts,
  members,
  onChanged,
}: {
  cooperative: Cooperative;
  books: Books;
  payouts: Payout[];
  /** The cooperative's people (their numbers: a payout goes to the member's own by default). */
  members: Membership[];
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<unknown>(null);
  const act = (action: () => Promise<unknown>) =>
    action().then(
      () => onChanged().then(() => setProblem(null)),
      (error: unknown) => setProblem(error),
    );
  return (
    <section className="stack coop-money" aria-label={t('cooperative.money.title', { coop: cooperative.name })}>
      <h3>{t('cooperative.money.title', { coop: cooperative.name })}</h3>
      <p className="muted">
        {t('cooperative.money.figures', {
          sales: money(books.sales_cents),
          fees: money(books.platform_fees_cents),
          shared: money(books.shared_cents),
          kept: money(books.kept_cents),
        })}
      </p>
      <ErrorBox messages={problem ? errorMessages(problem, t, 'cooperative.action_failed') : []} />
      <ul className="list">
        {books.data
          .filter((a) => a.shares_cents > 0)
          .map((a) => (
            <MemberAccount
              key={a.member_id}
              account={a}
              payouts={payouts.filter((p) => p.member_id === a.member_id)}
              phone={members.find((m) => m.user_id === a.member_id)?.phone_number}
              cooperativeId={cooperative.id}
              act={act}
              onChanged={onChanged}
            />
          ))}
      </ul>
      <ExportButton
        path={`/cooperatives/${cooperative.id}/accounts/export?lang=${currentLanguage()}`}
        label={t('cooperative.money.export')}
      />
    </section>
  );
}

function MemberAccount({
  account: a,
  payouts,
  phone,
  cooperativeId,
  act,
  onChanged,
}: {
  account: Account;
  payouts: Payout[];
  phone: string | undefined;
  cooperativeId: number;
  act: (action: () => Promise<unknown>) => Promise<unknown>;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  // One uid per payout the manager means to make: a resent request is the same payout.
  const [uid, setUid] = useState(() => crypto.randomUUID());
  const [paying, setPaying] = useState(false);
  const [code, setCode] = useState('');
  const payCash = () =>
    act(() =>
      payMember(cooperativeId, { uid, member_id: a.member_id, method: 'cash' }).then(() => setUid(crypto.randomUUID())),
    );
  const waiting = payouts.find((p) => p.method === 'cash' && p.status === 'pending');
  return (
    <li className="list-row column">
      <strong>{a.member_name}</strong>
      <p className="muted">
        {t('cooperative.money.account', {
          shares: money(a.shares_cents),
          paid: money(a.paid_cents),
          owed: money(a.owed_cents),
        })}
      </p>
      {payouts.slice(0, 3).map((p) => (
        <p key={p.id} className="muted">
          {p.status === 'paid'
            ? t('cooperative.money.paid', { amount: money(p.amount_cents) })
            : p.status === 'failed'
              ? t('cooperative.money.failed', { amount: money(p.amount_cents), reason: p.failure_reason ?? '' })
              : p.method === 'cash'
                ? t('cooperative.money.waiting_code', { amount: money(p.amount_cents) })
                : t('cooperative.money.pending', { amount: money(p.amount_cents) })}
        </p>
      ))}
      {waiting ? (
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void act(() => confirmPayout(cooperativeId, waiting.id, code).then(() => setCode('')));
          }}
        >
          <TextField
            label={t('cooperative.money.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <span className="actions">
            <button type="submit" className="button small">
              {t('cooperative.money.confirm')}
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => void act(() => cancelPayout(cooperativeId, waiting.id))}
            >
              {t('cooperative.money.cancel')}
            </button>
          </span>
        </form>
      ) : (
        a.owed_cents > 0 &&
        (paying ? (
          <MobilePayout
            account={a}
            phone={phone}
            cooperativeId={cooperativeId}
            uid={uid}
            onSent={async () => {
              setUid(crypto.randomUUID());
              setPaying(false);
              await onChanged();
            }}
            onCancel={() => setPaying(false)}
          />
        ) : (
          <span className="actions">
            <button type="button" className="button small" onClick={() => void payCash()}>
              {t('cooperative.money.pay_cash')}
            </button>
            <button type="button" className="button secondary small" onClick={() => setPaying(true)}>
              {t('cooperative.money.pay_mobile')}
            </button>
          </span>
        ))
      )}
    </li>
  );
}
