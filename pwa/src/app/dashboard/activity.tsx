// Recent activity on the dashboard homes, from real events only: for an admin, the
// platform's latest (GET /admin/overview, its last answer kept on the phone); for
// everyone else, their orders' events and their applications, from the phone's copy.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../components/stat-card';
import { api } from '../../lib/api';
import { formatDate, formatMoney } from '../../lib/format';
import { useApplications } from '../../lib/entities/applications';
import type { LocalDb } from '../../lib/sync/local-db';
import { useOrders } from '../../lib/entities/orders';
import { paths } from '../../lib/paths';
import type { SectionId } from './sections';
import './dashboard.css';

interface Overview {
  /** Payments go to the built-in simulator: no real money moves. */
  payments_simulated: boolean;
  /** The continuous off-site copy, for super admins (docs/operations.md, Off-site copy). */
  offsite?: Offsite;
  figures: {
    users: number;
    users_last_30_days: number;
    products_on_sale: number;
    products_low_stock: number;
    orders: number;
    orders_last_30_days: number;
    revenue: number;
    applications_waiting: number;
  };
  activity: {
    kind: string;
    at: string;
    id: number;
    name: string;
    detail: string | null;
    amount: number | null;
  }[];
}

interface Offsite {
  /** None: this server is the only copy of the data. */
  configured: boolean;
  /** `ok` only when the store holds the newest transaction within the threshold. */
  state: 'none' | 'pending' | 'ok' | 'lagging' | 'failing';
  /** Why the store refused the last look, when `state` is `failing`. */
  failure: 'unreachable' | 'denied' | 'bucket_missing' | 'other' | null;
  confirmed_at: string | null;
  media_at: string | null;
  /** Not confirmed for longer than the alert's threshold. */
  lagging: boolean;
}

const SAVED = 'admin_overview';

/** The admin home: the platform's figures and latest events; offline, the last ones seen. */
export function AdminHome({ db, onOpen }: { db: LocalDb | null; onOpen(section: SectionId): void }) {
  const { t } = useTranslation();
  const [seen, setSeen] = useState<{ overview: Overview; at: string } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    void (async () => {
      const saved = await db?.getMeta<{ overview: Overview; at: string }>(SAVED);
      if (live && saved) setSeen(saved);
      try {
        const overview = await api<Overview>('/admin/overview');
        const fresh = { overview, at: new Date().toISOString() };
        await db?.setMeta(SAVED, fresh);
        if (live) setSeen(fresh);
      } catch {
        if (live) setFailed(true);
      }
    })();
    return () => {
      live = false;
    };
  }, [db]);
  if (!seen) return failed ? <p className="card empty-note">{t('dashboard.overview_failed')}</p> : null;
  const { figures: f, activity } = seen.overview;
  const recent = (count: number) => t('dashboard.figures.last_30_days', { count });
  return (
    <>
      {seen.overview.payments_simulated && (
        <p className="card sync-note bad" role="status">
          {t('dashboard.payments_simulated')}
        </p>
      )}
      {seen.overview.offsite && <OffsiteCopy copy={seen.overview.offsite} />}
      <div className="stat-cards">
        <StatCard
          label={`${t('dashboard.figures.users')} · ${recent(f.users_last_30_days)}`}
          value={f.users}
          onClick={() => onOpen('users')}
        />
        <StatCard
          label={`${t('dashboard.figures.on_sale')} · ${t('dashboard.figures.low_stock', { count: f.products_low_stock })}`}
          value={f.products_on_sale}
        />
        <StatCard
          label={`${t('dashboard.figures.orders')} · ${recent(f.orders_last_30_days)}`}
          value={f.orders}
          onClick={() => onOpen('orders')}
        />
        <StatCard label={t('dashboard.figures.revenue')} value={formatMoney(f.revenue)} />
        <StatCard
          label={t('dashboard.figures.waiting')}
          value={f.applications_waiting}
          onClick={() => onOpen('applications')}
        />
      </div>
      <p className="muted figures-note">{t('dashboard.figures.as_of', { time: formatDate(seen.at, 'time') })}</p>
      <section className="card activity" aria-labelledby="activity-title">
        <h2 id="activity-title">{t('dashboard.activity.title')}</h2>
        {activity.length === 0 ? (
          <p className="muted">{t('dashboard.activity.none')}</p>
        ) : (
          <ul>
            {activity.map((a) => (
              <li key={`${a.kind}-${a.id}-${a.at}`}>
                <AdminEvent event={a} onOpen={onOpen} />
                <time className="muted" dateTime={a.at}>
                  {formatDate(a.at, 'short')}
                </time>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** Where the data's off-site copy stands: a warning when there is none, it lags, or the store refuses it. */
function OffsiteCopy({ copy }: { copy: Offsite }) {
  const { t } = useTranslation();
  if (!copy.configured)
    return (
      <p className="card sync-note bad" role="status">
        {t('dashboard.offsite.none')}
      </p>
    );
  const bad = copy.state === 'lagging' || copy.state === 'failing';
  return (
    <section className={`card offsite${bad ? ' bad' : ''}`} aria-labelledby="offsite-title">
      <h2 id="offsite-title">{t('dashboard.offsite.title')}</h2>
      <p>
        {copy.confirmed_at
          ? t('dashboard.offsite.confirmed', { time: formatDate(copy.confirmed_at, 'time') })
          : t('dashboard.offsite.never')}
        {copy.media_at && ` ${t('dashboard.offsite.media', { time: formatDate(copy.media_at, 'time') })}`}
      </p>
      {copy.state === 'failing' && <p role="alert">{t(`dashboard.offsite.failing.${copy.failure ?? 'other'}`)}</p>}
      {copy.state === 'lagging' && <p role="status">{t('dashboard.offsite.lagging')}</p>}
    </section>
  );
}

const SECTION_OF: Record<string, SectionId> = {
  signed_up: 'users',
  application_submitted: 'applications',
  application_decided: 'applications',
  order_placed: 'orders',
  payment_received: 'orders',
};

function AdminEvent({ event: a, onOpen }: { event: Overview['activity'][number]; onOpen(section: SectionId): void }) {
  const { t } = useTranslation();
  const values = {
    name: a.name,
    number: a.id,
    amount: a.amount === null ? '' : formatMoney(a.amount),
    role: a.detail ? t(`roles.${a.detail}`, { defaultValue: a.detail }) : '',
    farmer: a.detail ?? '',
    operator: a.detail ?? '',
  };
  const kind =
    a.kind === 'application_decided' ? `application_${a.detail === 'approved' ? 'approved' : 'rejected'}` : a.kind;
  const text = t(`dashboard.activity.${kind}`, { ...values, defaultValue: a.kind });
  if (a.kind === 'product_listed') return <Link to={paths.product(a.id)}>{text}</Link>;
  const section = SECTION_OF[a.kind];
  return section ? (
    <button type="button" className="link-button" onClick={() => onOpen(section)}>
      {text}
    </button>
  ) : (
    <span>{text}</span>
  );
}

/** A person's latest events, from the phone: their orders' steps and their applications. */
export function RecentActivity({ db, onOpen }: { db: LocalDb; onOpen(section: SectionId): void }) {
  const { t } = useTranslation();
  const orders = useOrders(db);
  const applications = useApplications(db);
  if (!orders || !applications) return null;
  const events = [
    ...orders.flatMap((o) =>
      (o.events ?? []).map((e) => ({
        at: e.at,
        section: 'orders' as const,
        text: t(`dashboard.activity.my_order_${e.kind}`, { number: o.id ?? '' }),
      })),
    ),
    ...applications
      .filter((a) => a.status !== 'draft' && a.created_at)
      .map((a) => ({
        at: String(a.updated_at ?? a.created_at),
        section: 'applications' as const,
        text: t('dashboard.activity.application', { status: t(`survey.status.${a.status}`) }),
      })),
  ]
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, 6);
  if (events.length === 0) return null;
  return (
    <section className="card activity" aria-labelledby="activity-title">
      <h2 id="activity-title">{t('dashboard.activity.title')}</h2>
      <ul>
        {events.map((e, i) => (
          <li key={`${e.at}-${i}`}>
            <button type="button" className="link-button" onClick={() => onOpen(e.section)}>
              {e.text}
            </button>
            <time className="muted" dateTime={e.at}>
              {formatDate(e.at, 'short')}
            </time>
          </li>
        ))}
      </ul>
    </section>
  );
}
