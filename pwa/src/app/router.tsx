// The route table (docs/product.md, Screens). Pages load lazily, so a first visit
// downloads only what it shows.
import { createBrowserRouter, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/spinner';
import { NotFoundPage } from '../features/pages/not-found-page';
import { RequireAuth } from './guards';
import { RootLayout } from './layouts';
import { loadHome, prepareHome } from './warm-screens';

/** Shown while the first page's code arrives on a cold start. */
function RouteLoading() {
  const { t } = useTranslation();
  return <Spinner label={t('common.loading')} />;
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: RouteLoading,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('../features/home/home-page')).HomePage }) },
      {
        path: 'login',
        lazy: async () => {
          const { LoginPage } = await import('../features/auth/login-page');
          return { Component: () => <LoginPage prepareHome={prepareHome} /> };
        },
      },
      {
        path: 'register',
        lazy: async () => ({ Component: (await import('../features/auth/register-page')).RegisterPage }),
      },
      { path: 'about', lazy: async () => ({ Component: (await import('../features/pages/about-page')).AboutPage }) },
      {
        path: 'programs',
        lazy: async () => ({ Component: (await import('../features/pages/programs-page')).ProgramsPage }),
      },
      {
        path: 'contact',
        lazy: async () => ({ Component: (await import('../features/pages/contact-page')).ContactPage }),
      },
      {
        path: 'forgot-password',
        lazy: async () => ({
          Component: (await import('../features/auth/password-reset-pages')).ForgotPasswordPage,
        }),
      },
      {
        path: 'reset-password',
        lazy: async () => ({
          Component: (await import('../features/auth/password-reset-pages')).ResetPasswordPage,
        }),
      },
      { path: 'terms', lazy: async () => ({ Component: (await import('../features/pages/terms-page')).TermsPage }) },
      { path: 'privacy', lazy: async () => ({ Component: (await import('../features/pages/terms-page')).TermsPage }) },
      { path: 'help', lazy: async () => ({ Component: (await import('../features/pages/help-page')).HelpPage }) },
      {
        path: 'marketplace',
        lazy: async () => ({ Component: (await import('../features/marketplace/marketplace-page')).MarketplacePage }),
      },
      {
        path: 'product/:id',
        lazy: async () => ({ Component: (await import('../features/marketplace/product-page')).ProductPage }),
      },
      { path: 'cart', lazy: async () => ({ Component: (await import('../features/cart/cart-page')).CartPage }) },
      {
        path: 'training',
        lazy: async () => ({ Component: (await import('../features/training/training-page')).TrainingPage }),
      },
      {
        path: 'course/:id',
        lazy: async () => ({ Component: (await import('../features/training/course-page')).CoursePage }),
      },
      {
        path: 'certificates/:code',
        lazy: async () => ({
          Component: (await import('../features/training/certificate-page')).CertificatePage,
        }),
      },
      { path: 'news', lazy: async () => ({ Component: (await import('../features/news/news-page')).NewsPage }) },
      {
        path: 'prices',
        lazy: async () => ({ Component: (await import('../features/prices/prices-page')).PricesPage }),
      },
      {
        path: 'news/:id',
        lazy: async () => ({ Component: (await import('../features/news/article-page')).ArticlePage }),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: 'dashboard',
            lazy: async () => ({ Component: (await loadHome()).DashboardPage }),
          },
          {
            path: 'profile',
            lazy: async () => ({ Component: (await import('../features/profile/profile-page')).ProfilePage }),
          },
          {
            path: 'orders',
            lazy: async () => ({ Component: (await import('../features/orders/orders-page')).OrdersPage }),
          },
          {
            path: 'learn/:id',
            lazy: async () => ({ Component: (await import('../features/training/learn-page')).LearnPage }),
          },
          {
            path: 'checkout',
            lazy: async () => ({ Component: (await import('../features/checkout/checkout-page')).CheckoutPage }),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
