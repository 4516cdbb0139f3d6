// A cooperative's lot in the marketplace (docs/cooperatives.md, Lots): marked as the
// cooperative's, with how many members put into it and when it was collected; on its
// page, where and on which days to collect it and its origin report to download (CSV, GeoJSON: public
// files, plain links).
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../lib/paths';
import type { ProductLot } from '../lib/sync/records';
import { formatDay, STORE_DAYS, weekDays } from '../lib/format';
import { DownloadIcon } from './icons';

export function LotBadge() {
  const { t } = useTranslation();
  return <span className="badge yellow lot-badge">{t('cooperative.lot_badge')}</span>;
}

function collected(lot: ProductLot): string {
  const [from, to] = [formatDay(lot.collected_from), formatDay(lot.collected_to)];
  return from === to ? from : `${from} – ${to}`;
}

/** One line under a card's title. */
export function LotLine({ lot }: { lot: ProductLot }) {
  const { t } = useTranslation();
  return (
    <p className="muted lot-line">
      {t('cooperative.lot_line', { count: lot.members, coop: lot.cooperative_name, days: collected(lot) })}
    </p>
  );
}

/** The product page's account of a lot. */
export function LotDetails({ lot, lang }: { lot: ProductLot; lang: string }) {
  const { t } = useTranslation();
  return (
    <section className="card lot-details" aria-label={t('cooperative.lot_badge')}>
      <LotBadge />
      <p>{t('cooperative.lot_line', { count: lot.members, coop: lot.cooperative_name, days: collected(lot) })}</p>
      <p>{t('cooperative.lot_pickup', { place: lot.pickup, days: weekDays(lot.pickup_days ?? STORE_DAYS, t) })}</p>
      <p>
        <Link to={paths.cooperative(lot.cooperative_id)}>
          {t('cooperative.public.about', { coop: lot.cooperative_name })}
        </Link>
      </p>
      <p className="muted">{t('cooperative.origin_hint')}</p>
      <div className="actions">
        {/* Public files: plain links, nothing to sign. */}
        <a className="button secondary small" href={`/api/v1/lots/${lot.id}/origin.csv?lang=${lang}`} download>
          <DownloadIcon /> {t('cooperative.origin_csv')}
        </a>
        <a className="button secondary small" href={`/api/v1/lots/${lot.id}/origin.geojson`} download>
          <DownloadIcon /> {t('cooperative.origin_geojson')}
        </a>
      </div>
    </section>
  );
}
