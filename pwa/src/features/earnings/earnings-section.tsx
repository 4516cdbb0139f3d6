// The farmer's Earnings section (docs/orders.md): what they earned (the
// ledger's sum), what orders not yet delivered will bring, totals by month,
// and the newest entries. It reads the server and keeps the last answer on the
// phone, shown with its time when there is no connection.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { api } from '../../lib/api';
import { formatDate, formatMoney } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { LoadFailed } from '../../components/load-failed';
import { useLocalDb } from '../../lib/sync/provider';

interface Earnings {
  currency: string;
  earned_cents: number;
  pending_cents: number;
  by_month: { month: string; earned_cents: number; sales: number }[];
  entries: { order_id: number; part_id: number; kind: 'sale' | 'fee' | 'refund'; amount_cents: number; at: string }[];
}

const money = (cents: number) => formatMoney(cents / 100);

/** "2026-11" → "November 2026" in the person's language. */
function monthName(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(currentLanguage(), { month: 'long', year: 'numeric' }).format(
    new Date(Date.UTC(year!, m! - 1, 15)),
  );
}

/** The last answer, kept in the account's database on this phone. */
const SAVED = 'earnings';
type Saved = { earnings: Earnings; at: string };

export function EarningsSection() {
  const { t } = useTranslation();
  const db = useLocalDb();
  const [earnings, setEarnings] = useState<Earnings | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(async () => {
    try {
      const fresh = await api<Earnings>('/farmer/earnings');
      setEarnings(fresh);
      setSavedAt(null);
      setError(null);
      await db?.setMeta(SAVED, { earnings: fresh, at: new Date().toISOString() } satisfies Saved);
    } catch (caught) {
      setError(caught);
      const saved = await db?.getMeta<Saved>(SAVED);
      if (saved) {
        setEarnings((current) => current ?? saved.earnings);
        setSavedAt((current) => current ?? saved.at);
      }
    }
  }, [db]);
  useEffect(() => {
    void load();
  }, [load]);

  if (error && !earnings) {
    return (
      <LoadFailed
        title={t('earnings.title')}
        error={error}
        fallbackKey="earnings.load_failed"
        onRetry={() => void load()}
      />
    );
  }
  if (!earnings) return <Spinner label={t('common.loading')} />;
  const thisMonth = new Date().toISOString().slice(0, 7);
  const month = earnings.by_month.find((m) => m.month === thisMonth)?.earned_cents ?? 0;
  return (
    <section aria-labelledby="earnings-title">
      <h2 id="earnings-title">{t('earnings.title')}</h2>
      {savedAt && (
        <p className="sync-note wait" role="status">
          {t('earnings.saved_copy', { time: formatDate(savedAt, 'time') })}
        </p>
      )}
      <div className="stat-cards">
        <StatCard label={t('earnings.earned')} value={money(earnings.earned_cents)} />
        <StatCard label={t('earnings.pending')} value={money(earnings.pending_cents)} />
        <StatCard label={t('earnings.this_month')} value={money(month)} />
      </div>
      <p className="hint">{t('earnings.note', { currency: earnings.currency })}</p>
      {earnings.by_month.length === 0 ? (
        <div className="card empty-state">
          <p>{t('earnings.empty')}</p>
        </div>
      ) : (
        <>
          <h3>{t('earnings.by_month')}</h3>
          <ul className="card order-lines">
            {earnings.by_month.map((m) => (
              <li key={m.month}>
                <span>{monthName(m.month)}</span>
                <span className="muted">{t('earnings.sales', { count: m.sales })}</span>
                <strong>{money(m.earned_cents)}</strong>
              </li>
            ))}
          </ul>
          <h3>{t('earnings.entries')}</h3>
          <ul className="card order-lines">
            {earnings.entries.map((e) => (
              <li key={`${e.part_id}-${e.kind}`}>
                <span>
                  {t('orders.number', { id: e.order_id })}
                  {e.kind !== 'sale' && <span className="muted"> · {t(`earnings.kind_${e.kind}`)}</span>}
                </span>
                <span className="muted">{formatDate(e.at, 'short')}</span>
                <strong>{money(e.amount_cents)}</strong>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
