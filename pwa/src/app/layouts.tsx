import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ConnectionNote } from '../components/connection-note';
import { ErrorBoundary } from '../components/error-boundary';
import { Spinner } from '../components/spinner';
import { Footer } from './layout/footer';
import { Header } from './layout/header';
import { isAppArea } from '../lib/paths';
import { UpdatePrompt } from './update-prompt';
import { warmScreens } from './warm-screens';
import { useSession } from '../lib/session';

/** Every page: scroll to top on each path change, and the update prompt. */
export function RootLayout() {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const opened = useRef(false);
  useEffect(() => {
    // Not the page the app opened on: the browser placed it, and the person may have
    // scrolled the server's first screen while the app started (lib/first-screen.ts).
    if (opened.current) window.scrollTo(0, 0);
    opened.current = true;
  }, [pathname]);
  const publicPage = !isAppArea(pathname);
  const role = useSession().user?.role;
  useEffect(() => {
    if (role) warmScreens(role);
  }, [role]);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('common.skip_to_content')}
      </a>
      {publicPage && <Header />}
      <main id="main" tabIndex={-1}>
        <ConnectionNote />
        <Suspense fallback={<Spinner label={t('common.loading')} />}>
          {/* A page that fails says so (also one whose code cannot come: offline and never
              opened on this phone, or over a link that carries nothing), and "Try again"
              loads the app anew. */}
          <ErrorBoundary resetKey={pathname} retry={() => window.location.reload()}>
            <Outlet />
          </ErrorBoundary>
        </Suspense>
      </main>
      {publicPage && <Footer />}
      <UpdatePrompt />
    </>
  );
}
