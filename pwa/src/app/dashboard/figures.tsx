// The dashboard's figures, from the records on the phone (so they show
// offline and follow every sync, marked with when it last did): a buyer's
// orders, the items bought and the wishlist; a farmer's products, orders and
// what delivered orders earned; for both, the courses they are enrolled in; a
// field agent's people visited and their applications' outcomes.
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../components/stat-card';
import { formatDate, formatMoney } from '../../lib/format';
import { useApplications } from '../../lib/entities/applications';
import type { LocalDb } from '../../lib/sync/local-db';
import { partEarning, useOrders } from '../../lib/entities/orders';
import { useOwnProducts } from '../../lib/entities/products';
import type { DashboardKind } from './sections';
import './dashboard.css';

interface FiguresProps {
  db: LocalDb;
  kind: DashboardKind;
  userId: number;
  /** Opens a dashboard section (the farmer's first step: Products). */
  onOpen(section: 'products'): void;
}

export function DashboardFigures({ db, kind, userId, onOpen }: FiguresProps) {
  const { t } = useTranslation();
  const orders = useOrders(db);
  const products = useOwnProducts(db, userId);
  const wishlist = useLiveQuery(() => db.favourites.count(), [db]);
  const courses = useLiveQuery(() => db.enrolments.filter((e) => e.status === 'active').count(), [db]);
  const applications = useApplications(db);
  const pulledAt = useLiveQuery(() => db.getMeta<string>('pulled_at'), [db]);
  const synced = (
    <p className="muted figures-note">
      {pulledAt
        ? t('dashboard.figures.synced', { time: formatDate(pulledAt, 'time') })
        : t('dashboard.figures.not_synced')}
    </p>
  );
  if (kind === 'agent') {
    if (!applications) return null;
    // The applications this agent filled for other people.
    const filled = applications.filter((a) => a.user_id !== userId);
    const people = new Set(filled.map((a) => (a.user_id !== undefined ? `id:${a.user_id}` : `uid:${a.person_uid}`)));
    const count = (...statuses: string[]) => filled.filter((a) => statuses.includes(a.status)).length;
    return (
      <>
        <div className="stat-cards">
          <StatCard label={t('dashboard.figures.people_visited')} value={people.size} />
          <StatCard label={t('dashboard.figures.applications')} value={filled.length} />
          <StatCard label={t('dashboard.figures.waiting')} value={count('pending', 're-submitted')} />
          <StatCard label={t('dashboard.figures.approved')} value={count('approved')} />
          <StatCard label={t('dashboard.figures.rejected')} value={count('rejected')} />
        </div>
        {synced}
      </>
    );
  }
  if (!orders || (kind !== 'customer' && kind !== 'farmer')) return null;
  if (kind === 'customer') {
    const bought = orders.filter((o) => o.parts.some((p) => p.farmer.id !== userId));
    const items = bought
      .flatMap((o) => o.parts.filter((p) => p.status !== 'cancelled'))
      .flatMap((p) => p.lines)
      .reduce((sum, line) => sum + line.quantity, 0);
    return (
      <>
        <div className="stat-cards">
          <StatCard label={t('dashboard.figures.orders')} value={bought.length} />
          <StatCard label={t('dashboard.figures.items')} value={items} />
          <StatCard label={t('dashboard.figures.courses')} value={courses ?? 0} />
          <StatCard label={t('dashboard.figures.wishlist')} value={wishlist ?? 0} />
        </div>
        {synced}
      </>
    );
  }
  const parts = orders.flatMap((o) => o.parts.filter((p) => p.farmer.id === userId).map((p) => ({ o, p })));
  // As the ledger counts it: delivered parts, less the platform fee of their order.
  const earned = parts.filter(({ p }) => p.status === 'delivered').reduce((s, { o, p }) => s + partEarning(o, p), 0);
  return (
    <>
      {products?.length === 0 && (
        // A new farmer (just approved, or never sold): the one next step.
        <section className="card next-step" aria-labelledby="first-product">
          <h2 id="first-product">{t('dashboard.first_product.title')}</h2>
          <p>{t('dashboard.first_product.body')}</p>
          <button type="button" className="button" onClick={() => onOpen('products')}>
            {t('dashboard.first_product.action')}
          </button>
        </section>
      )}
      <div className="stat-cards">
        <StatCard label={t('dashboard.figures.products')} value={products?.length ?? 0} />
        <StatCard label={t('dashboard.figures.orders')} value={parts.length} />
        <StatCard label={t('dashboard.figures.earned')} value={formatMoney(earned / 100)} />
        <StatCard label={t('dashboard.figures.courses')} value={courses ?? 0} />
      </div>
      {synced}
    </>
  );
}
