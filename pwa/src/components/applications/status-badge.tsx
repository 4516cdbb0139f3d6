// An application's status as a coloured badge.
import { useTranslation } from 'react-i18next';
import { type ApplicationStatus } from '../../lib/entities/applications';

export const BADGE: Record<ApplicationStatus, string> = {
  approved: 'badge green',
  pending: 'badge yellow',
  rejected: 'badge red',
  're-submitted': 'badge blue',
  draft: 'badge grey',
};

export function StatusBadge({ status }: { status: ApplicationStatus }) {
  const { t } = useTranslation();
  return <span className={BADGE[status]}>{t(`survey.status.${status}`)}</span>;
}
