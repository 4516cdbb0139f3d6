// A product's details for its farmer: photos, basic facts, prices, dates.
import { useTranslation } from 'react-i18next';
import { Modal } from './dialog';
import { formatDate, formatDay, formatMoney } from '../lib/format';
import type { LocalDb } from '../lib/sync/local-db';
import { fieldsOf, type Product } from '../lib/entities/products';
import { Photo } from './product-photo';
import { unitCounted } from './product-parts';

export function ProductDetails({ db, product: p, onClose }: { db: LocalDb; product: Product; onClose(): void }) {
  const { t } = useTranslation();
  const f = fieldsOf(p);
  return (
    <Modal title={p.title} closeLabel={t('admin.close')} onClose={onClose}>
      <div className="photo-strip">
        {f.images.map((hash) => (
          <Photo key={hash} db={db} hash={hash} size={320} alt="" />
        ))}
      </div>
      <dl className="details compact">
        <div>
          <dt>{t('products.fields.category')}</dt>
          <dd>{t(`market.category.${f.category}`)}</dd>
        </div>
        <div>
          <dt>{t('market.stock')}</dt>
          <dd>{t('market.in_stock', { count: p.quantity, unit: unitCounted(t, f.unit, p.quantity) })}</dd>
        </div>
        <div>
          <dt>{t('products.fields.price')}</dt>
          <dd>{formatMoney(f.price)}</dd>
        </div>
        <div>
          <dt>{t('products.fields.current_price')}</dt>
          <dd>{formatMoney(f.current_price)}</dd>
        </div>
        <div>
          <dt>{t('market.harvested')}</dt>
          <dd>{formatDay(f.harvest_date) || t('profile.not_provided')}</dd>
        </div>
        <div>
          <dt>{t('market.expires')}</dt>
          <dd>{formatDay(f.expiry_date) || t('profile.not_provided')}</dd>
        </div>
        {p.created_at && (
          <div>
            <dt>{t('survey.created')}</dt>
            <dd>{formatDate(p.created_at, 'time')}</dd>
          </div>
        )}
        {typeof p.updated_at === 'string' && (
          <div>
            <dt>{t('profile.last_updated')}</dt>
            <dd>{formatDate(p.updated_at, 'time')}</dd>
          </div>
        )}
      </dl>
      <p>{f.description}</p>
    </Modal>
  );
}
