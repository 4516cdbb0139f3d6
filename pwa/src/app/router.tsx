// The route table (docs/product.md, Screens). Pages load lazily (app/pages.ts), so a
// first visit downloads only what it shows.
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/spinner';
import { NotFoundPage } from '../features/pages/not-found-page';
import { RequireAuth } from './guards';
import { RootLayout } from './layouts';
import { pages, type PagePath } from './pages';

/** Shown while the first page's code arrives on a cold start. */
function RouteLoading() {
  const { t } = useTranslation();
  return <Spinner label={t('common.loading')} />;
}

/** The route at `path`, drawn by `component` of the page's code (app/pages.ts). */
function page<P extends PagePath>(
  path: P,
  component: (code: Awaited<ReturnType<(typeof pages)[P]>>) => ComponentType,
): RouteObject {
  const lazy = async () => ({ Component: component((await pages[path]()) as Awaited<ReturnType<(typeof pages)[P]>>) });
  return path === '' ? { index: true, lazy } : { path, lazy };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: RouteLoading,
    children: [
      page('', (code) => code.HomePage),
      page('login', (code) => code.LoginPage),
      page('register', (code) => code.RegisterPage),
      page('about', (code) => code.AboutPage),
      page('programs', (code) => code.ProgramsPage),
      page('contact', (code) => code.ContactPage),
      page('forgot-password', (code) => code.ForgotPasswordPage),
      page('reset-password', (code) => code.ResetPasswordPage),
      page('terms', (code) => code.TermsPage),
      page('privacy', (code) => code.TermsPage),
      page('help', (code) => code.HelpPage),
      page('marketplace', (code) => code.MarketplacePage),
      page('product/:id', (code) => code.ProductPage),
      page('cart', (code) => code.CartPage),
      page('training', (code) => code.TrainingPage),
      page('course/:id', (code) => code.CoursePage),
      page('certificates/:code', (code) => code.CertificatePage),
      page('news', (code) => code.NewsPage),
      page('prices', (code) => code.PricesPage),
      page('news/:id', (code) => code.ArticlePage),
      {
        element: <RequireAuth />,
        children: [
          page('dashboard', (code) => code.DashboardPage),
          page('profile', (code) => code.ProfilePage),
          page('orders', (code) => code.OrdersPage),
          page('learn/:id', (code) => code.LearnPage),
          page('checkout', (code) => code.CheckoutPage),
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
