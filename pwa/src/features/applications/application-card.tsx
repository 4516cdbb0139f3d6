// One application in the customer's list, with its queued or refused state.
import { useTranslation } from 'react-i18next';
import { AlertIcon, ClockIcon, EditIcon, TrashIcon } from '../../components/icons';
import { formatDate } from '../../lib/format';
import type { OutboxEntry } from '../../lib/sync/local-db';
import { optionLabel, type SurveyField } from '../../lib/entities/application-fields';
import { type Application } from '../../lib/entities/applications';
import { StatusBadge } from '../../components/applications/status-badge';
import '../../components/applications/applications.css';

export function ApplicationCard(props: {
  application: Application;
  number: number;
  /** Whose application, when an agent filled it. */
  applicant?: string;
  entries: OutboxEntry[];
  onView(): void;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const { application: a, entries } = props;
  const waiting = entries.some((e) => e.state === 'queued');
  const refused = entries.find((e) => e.state === 'rejected');
  const changeable = a.status === 'draft' || a.status === 'rejected';
  const answer = (field: SurveyField) => {
    const value = a[field];
    return typeof value === 'string' ? optionLabel(t, field, value) : t('profile.not_provided');
  };
  return (
    <li className="card application-card">
      <div className="application-head">
        <h3>{t('survey.number', { number: props.number })}</h3>
        <StatusBadge status={a.status} />
      </div>
      {props.applicant && <p className="applicant">{t('agent.for_person', { name: props.applicant })}</p>}
      {waiting && (
        <p className="sync-note wait">
          <ClockIcon /> {t('survey.waiting')}
        </p>
      )}
      {refused && (
        <p className="sync-note bad" role="alert">
          <AlertIcon /> {t('survey.refused')}:{' '}
          {t(`errors.${refused.result?.code ?? 'internal_error'}`, { defaultValue: refused.result?.message ?? '' })}
        </p>
      )}
      <dl className="details compact">
        <div>
          <dt>{t('survey.fields.land_size')}</dt>
          <dd>{answer('land_size')}</dd>
        </div>
        <div>
          <dt>{t('survey.fields.work_type')}</dt>
          <dd>{answer('work_type')}</dd>
        </div>
        <div>
          <dt>{t('survey.fields.cooperative_name')}</dt>
          <dd>{(a.cooperative_name as string) || t('profile.not_provided')}</dd>
        </div>
        <div>
          <dt>{t('survey.fields.average_yield')}</dt>
          <dd>{answer('average_yield')}</dd>
        </div>
        {a.created_at && (
          <div>
            <dt>{t('survey.created')}</dt>
            <dd>{formatDate(a.created_at)}</dd>
          </div>
        )}
      </dl>
      {a.admin_comment && (
        <p className="admin-comment">
          <strong>{t('survey.admin_comment')}:</strong> {a.admin_comment}
        </p>
      )}
      <div className="actions">
        <button type="button" className="button secondary small" onClick={props.onView}>
          {t('survey.view')}
        </button>
        {changeable && (
          <button type="button" className="button secondary small" onClick={props.onEdit}>
            <EditIcon />{' '}
            {refused ? t('survey.fix') : a.status === 'rejected' ? t('survey.resubmit') : t('profile.edit')}
          </button>
        )}
        {changeable && (
          <button type="button" className="button danger-outline small" onClick={props.onDelete}>
            <TrashIcon /> {t('survey.delete')}
          </button>
        )}
      </div>
    </li>
  );
}
