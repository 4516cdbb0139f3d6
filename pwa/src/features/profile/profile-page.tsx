import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { ChevronLeft } from '../../components/icons';
import { Logo } from '../../components/logo';
import { ProfilePanel } from './profile-panel';

export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <div className="app-page">
      <div className="app-topbar">
        <Link to={paths.dashboard} className="back-link">
          <ChevronLeft /> {t('nav.dashboard')}
        </Link>
        <Link to={paths.home} aria-label={t('nav.home_label')}>
          <Logo />
        </Link>
      </div>
      <section className="page narrow">
        <h1>{t('profile.title')}</h1>
        <ProfilePanel />
      </section>
    </div>
  );
}
