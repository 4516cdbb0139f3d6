// An order's (or a part's) status as a coloured badge.
import { useTranslation } from 'react-i18next';
import type { PartStatus } from '../lib/entities/orders';

const COLOUR: Record<PartStatus, string> = {
  processing: 'badge yellow',
  shipped: 'badge blue',
  delivered: 'badge green',
  cancelled: 'badge grey',
};

export function OrderStatusBadge({ status }: { status: PartStatus }) {
  const { t } = useTranslation();
  return <span className={COLOUR[status]}>{t(`orders.status.${status}`)}</span>;
}
