// The route table (docs/product.md, Screens). Pages load lazily (app/pages.ts), so a
// first visit downloads only what it shows. The router is React Router's declarative
// one (<BrowserRouter>, useRoutes): the app loads no data through routes, and the data
// router's machinery (loaders, actions, fetchers, revalidation) was ~14 KB of every
// first visit's code, before the app could answer (issue 39). Navigations are
// transitions: the page on screen stays until the next one's code has come.
import { lazy, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { NotFoundPage } from '../features/pages/not-found-page';
import { RequireAuth } from './guards';
import { RootLayout } from './layouts';
import { pages, type PagePath } from './pages';

/** The route at `path`, drawn by `component` of the page's code (app/pages.ts). */
function page<P extends PagePath>(
  path: P,
  component: (code: Awaited<ReturnType<(typeof pages)[P]>>) => ComponentType,
): RouteObject {
  const Page = lazy(async () => ({
    default: component((await pages[path]()) as Awaited<ReturnType<(typeof pages)[P]>>),
  }));
  return path === '' ? { index: true, element: <Page /> } : { path, element: <Page /> };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
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

/** The page at the browser's address. */
export function AppRoutes() {
  return useRoutes(routes);
}
