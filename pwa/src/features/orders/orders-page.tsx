// The buyer's orders (docs/product.md, Screens, "Orders"): tabs with counts,
// cards with their lines and farmers, the timeline, the farmer's phone, and
// orders waiting to be sent or refused because the catalogue changed. Read
// from the phone, so the list opens with no signal.
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppPage } from '../../components/app-page';
import { ReceiptIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import type { LocalDb } from '../../lib/sync/local-db';
import { useLocalDb } from '../../lib/sync/provider';
import { useOrders, type PartStatus } from '../../lib/entities/orders';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useOutbox } from '../../lib/sync/use-outbox';
import { OrderCard } from './order-card';
import { usePageHead } from '../../lib/page-head';

const TABS = ['all', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
type Tab = (typeof TABS)[number];

export function OrdersPage() {
  usePageHead('orders');
  const { t } = useTranslation();
  const db = useLocalDb();
  return (
    <AppPage back={paths.dashboard} backLabel={t('nav.dashboard')}>
      <section className="page orders-page" aria-labelledby="orders-title">
        <h1 id="orders-title">{t('orders.title')}</h1>
        {db ? <OrdersList db={db} /> : <Spinner label={t('common.loading')} />}
      </section>
    </AppPage>
  );
}

/** The buyer's orders, for the /orders page and the customer dashboard's Orders section. */
export function OrdersList({ db }: { db: LocalDb }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const orders = useOrders(db);
  const outbox = useOutbox(db);
  const [tab, setTab] = useState<Tab>('all');
  if (!orders) return <Spinner label={t('common.loading')} />;
  // The buyer's own orders; a farmer's sales are in their dashboard.
  const bought = orders.filter((o) => !o.parts.every((p) => p.farmer.id === user?.id));
  const count = (status: Tab) => (status === 'all' ? bought.length : bought.filter((o) => o.status === status).length);
  const shown = tab === 'all' ? bought : bought.filter((o) => o.status === (tab as PartStatus));
  return (
    <>
      {/* Wrapped, not scrolled: on a phone the last tabs were out of sight. */}
      <div className="chips wrap" role="tablist" aria-label={t('orders.tabs_label')}>
        {TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            className="chip"
            aria-selected={tab === id}
            onClick={() => setTab(id)}
          >
            {t(`orders.tabs.${id}`)} ({count(id)})
          </button>
        ))}
      </div>
      {shown.length === 0 ? (
        <div className="card empty-state">
          <ReceiptIcon />
          <h2>{t('orders.empty')}</h2>
          <Link className="button" to={paths.marketplace}>
            {t('orders.start_shopping')}
          </Link>
        </div>
      ) : (
        <ul className="order-list">
          {shown.map((order) => (
            <OrderCard key={order.uid} db={db} order={order} entries={outbox.filter((e) => e.uid === order.uid)} />
          ))}
        </ul>
      )}
    </>
  );
}
