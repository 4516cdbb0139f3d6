import { useTranslation } from 'react-i18next';
import { AppPage } from '../../components/app-page';
import { paths } from '../../lib/paths';
import { ProfilePanel } from './profile-panel';

export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <AppPage back={paths.dashboard} backLabel={t('nav.dashboard')}>
      <section className="page narrow">
        <h1>{t('profile.title')}</h1>
        <ProfilePanel />
      </section>
    </AppPage>
  );
}
