import { useTranslation } from 'react-i18next';
import { AppPage } from '../../components/app-page';
import { paths } from '../../lib/paths';
import { ProfilePanel } from './profile-panel';
import { usePageHead } from '../../lib/page-head';

export function ProfilePage() {
  usePageHead('profile');
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
