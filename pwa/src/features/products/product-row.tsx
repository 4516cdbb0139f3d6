// One product in the farmer's list: picture, status, prices, stock, queued state, actions.
import { useTranslation } from 'react-i18next';
import { AlertIcon, ClockIcon, EditIcon, TrashIcon } from '../../components/icons';
import { formatDate } from '../../lib/format';
import type { LocalDb, OutboxEntry } from '../../lib/sync/local-db';
import { Price, unitCounted } from '../../components/product-parts';
import { LOW_STOCK, type Product } from '../../lib/entities/products';
import { Photo } from '../../components/product-photo';
import './products.css';
import '../../components/applications/applications.css';

export function ProductRow(props: {
  db: LocalDb;
  product: Product;
  entries: OutboxEntry[];
  onView(): void;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const { product: p, entries } = props;
  const waiting = entries.some((e) => e.state === 'queued');
  const refused = entries.find((e) => e.state === 'rejected');
  return (
    <li className="card product-row">
      <Photo db={props.db} hash={p.images?.[0]} size={320} alt={p.title} category={p.category} />
      <div>
        <div className="application-head">
          <h3>{p.title}</h3>
          <span className={`badge ${p.status === 'active' ? 'green' : 'red'}`}>{t(`products.status.${p.status}`)}</span>
        </div>
        {p.hidden && (
          // Hidden by the MAVUNO team: the farmer reads why (and was told by email and SMS).
          <p className="sync-note bad" role="status">
            <AlertIcon /> {t('products.hidden', { reason: p.hidden.reason })}
          </p>
        )}
        {waiting && (
          <p className="sync-note wait">
            <ClockIcon /> {t('products.waiting')}
          </p>
        )}
        {refused && (
          <p className="sync-note bad" role="alert">
            <AlertIcon /> {t('survey.refused')}:{' '}
            {t(`errors.${refused.result?.code ?? 'internal_error'}`, { defaultValue: refused.result?.message ?? '' })}
          </p>
        )}
        <p>
          <Price product={p} />
        </p>
        <p className="muted">
          {t('market.in_stock', { count: p.quantity, unit: unitCounted(t, p.unit, p.quantity) })}
          {Number(p.quantity) <= LOW_STOCK && (
            <>
              {' '}
              · <strong>{t('products.low')}</strong>
            </>
          )}
          {p.created_at && <> · {formatDate(p.created_at, 'short')}</>}
        </p>
        <p className="description">{p.description}</p>
        <div className="actions">
          <button type="button" className="button secondary small" onClick={props.onView}>
            {t('survey.view')}
          </button>
          <button type="button" className="button secondary small" onClick={props.onEdit}>
            <EditIcon /> {t('profile.edit')}
          </button>
          <button type="button" className="button danger-outline small" onClick={props.onDelete}>
            <TrashIcon /> {t('survey.delete')}
          </button>
        </div>
      </div>
    </li>
  );
}
