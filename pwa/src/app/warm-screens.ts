// The screens only a signed-in person opens are not in the service worker's install (a
// visitor's first visit would pay for them: vite.config.ts). They are fetched once someone
// signs in, in the background, with the words they use, so that they open offline
// afterwards as the public pages do; the service worker keeps whatever the app loads.
import type { Role } from '../lib/account';
import { signedInWords } from '../lib/i18n';
import { pages } from './pages';

const SIGNED_IN = [pages.dashboard, pages.profile, pages['learn/:id']];

const ADMIN = [
  () => import('../features/admin/admin-applications'),
  () => import('../features/admin/admin-users'),
  () => import('../features/admin/admin-orders'),
  () => import('../features/admin/admin-products'),
  () => import('../features/admin/admin-blogs'),
  () => import('../features/admin/admin-analytics'),
  () => import('../features/admin/admin-settings'),
  () => import('../features/admin/admin-courses'),
  () => import('../features/admin/admin-prices'),
];

export function warmScreens(role: Role): void {
  const screens = role === 'admin' || role === 'super_admin' ? [...SIGNED_IN, ...ADMIN] : SIGNED_IN;
  const load = () => {
    void signedInWords(true).catch(() => undefined);
    screens.forEach((screen) => void screen().catch(() => undefined));
  };
  // After the page in front of the person has what it needs.
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 5000 });
  else setTimeout(load, 2000);
}
