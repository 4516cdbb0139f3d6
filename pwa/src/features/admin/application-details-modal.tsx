// An application as the admin reads it, in the six groups of docs/product.md, Screens.
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/dialog';
import { formatDate } from '../../lib/format';
import { FIELDS, FIELD_GROUPS, answerText, applies } from '../../lib/entities/application-fields';
import { type AdminApplication } from './api';
import { StatusBadge } from '../../components/applications/status-badge';
import { personName } from '../../lib/entities/people';
import { reviewable } from './api';
import './admin.css';
import '../../components/applications/applications.css';

export function ApplicationDetailsModal({
  application: a,
  onClose,
  onReview,
}: {
  application: AdminApplication;
  onClose(): void;
  onReview(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('admin.apps.details_title', { id: a.id })}
      closeLabel={t('admin.close')}
      onClose={onClose}
      actions={
        reviewable(a) ? (
          <button type="button" className="button" onClick={onReview}>
            {t('admin.apps.review')}
          </button>
        ) : undefined
      }
    >
      <p>
        <StatusBadge status={a.status} />
      </p>
      <dl className="details compact">
        <div>
          <dt>{t('admin.columns.applicant')}</dt>
          <dd>{personName(a.user)}</dd>
        </div>
        {(a.user.email || !a.user.phone_number) && (
          <div>
            <dt>{t('fields.email')}</dt>
            <dd>{a.user.email ?? t('profile.not_provided')}</dd>
          </div>
        )}
        {a.user.phone_number && (
          <div>
            <dt>{t('fields.phone_number')}</dt>
            <dd>
              <a href={`tel:${a.user.phone_number}`}>{a.user.phone_number}</a>
              {a.user.basic_phone && <span className="badge"> {t('admin.apps.basic_phone')}</span>}
            </dd>
          </div>
        )}
        <div>
          <dt>{t('admin.columns.created_by')}</dt>
          <dd>{personName(a.created_by)}</dd>
        </div>
        <div>
          <dt>{t('admin.columns.submitted')}</dt>
          <dd>{formatDate(a.created_at)}</dd>
        </div>
        {a.reviewed_at && (
          <div>
            <dt>{t('admin.columns.reviewed_at')}</dt>
            <dd>{formatDate(a.reviewed_at)}</dd>
          </div>
        )}
      </dl>
      {a.admin_comment && (
        <p className="admin-comment">
          <strong>{t('admin.columns.admin_comment')}:</strong> {a.admin_comment}
        </p>
      )}
      {(Object.keys(FIELD_GROUPS) as (keyof typeof FIELD_GROUPS)[]).map((group) => (
        <section key={group} className="detail-group">
          <h3>{t(`admin.apps.sections.${group}`)}</h3>
          <dl className="details">
            {FIELDS.filter((f) => (FIELD_GROUPS[group] as readonly string[]).includes(f.name) && applies(f, a)).map(
              (field) => (
                <div key={field.name}>
                  <dt>{t(`survey.fields.${field.name}`)}</dt>
                  <dd>{answerText(t, field, a[field.name])}</dd>
                </div>
              ),
            )}
          </dl>
        </section>
      ))}
    </Modal>
  );
}
