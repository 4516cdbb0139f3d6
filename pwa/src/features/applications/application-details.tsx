// An application read-only, with the admin's comment.
import { useTranslation } from 'react-i18next';
import { FIELDS, answerText, applies } from '../../lib/entities/application-fields';
import { type Application } from '../../lib/entities/applications';
import { StatusBadge } from '../../components/applications/status-badge';
import '../../components/applications/applications.css';

export function ApplicationDetails({ application, onBack }: { application: Application; onBack(): void }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="survey-details-title">
      <div className="application-head">
        <h2 id="survey-details-title">{t('survey.details_title')}</h2>
        <StatusBadge status={application.status} />
      </div>
      {application.admin_comment && (
        <p className="admin-comment">
          <strong>{t('survey.admin_comment')}:</strong> {application.admin_comment}
        </p>
      )}
      <dl className="details">
        {FIELDS.filter((f) => applies(f, application)).map((field) => (
          <div key={field.name}>
            <dt>{t(`survey.fields.${field.name}`)}</dt>
            <dd>{answerText(t, field, application[field.name])}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="button secondary" onClick={onBack}>
        {t('survey.back_to_list')}
      </button>
    </section>
  );
}
