// The frame of the signed-in screens outside the dashboard (profile, orders,
// checkout): a top bar with the way back and the logo, then the page.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../lib/paths';
import { ChevronLeft } from './icons';
import { Logo } from './logo';

export function AppPage({ back, backLabel, children }: { back: string; backLabel: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="app-page">
      <div className="app-topbar">
        <Link to={back} className="back-link">
          <ChevronLeft /> {backLabel}
        </Link>
        <Link to={paths.home} aria-label={t('nav.home_label')}>
          <Logo />
        </Link>
      </div>
      {children}
    </div>
  );
}
