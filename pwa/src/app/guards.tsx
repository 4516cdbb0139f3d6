import { use } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/spinner';
import { waitForCode } from '../lib/code-wait';
import { signedInWords } from '../lib/i18n';
import { useSession } from '../lib/session';
import { paths } from '../lib/paths';

/** Guarded routes: a spinner while the session loads, then the page or a replace-redirect to
 * /login (home for someone who has just signed out here). */
export function RequireAuth() {
  const { user, status, signedOut } = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  if (status === 'loading') {
    const label = location.pathname.startsWith(paths.dashboard) ? t('dashboard.loading') : t('common.loading_account');
    return <Spinner label={label} />;
  }
  if (!user && signedOut) return <Navigate to={paths.home} replace />;
  if (!user) return <Navigate to={paths.login} replace state={{ from: location.pathname + location.search }} />;
  // The signed-in screens' words, which a visitor's phone does not have (lib/i18n.ts).
  use(waitForCode(signedInWords()));
  return <Outlet />;
}
