// The route table (docs/product.md, Screens). Pages load lazily (app/pages.ts), so a
// first visit downloads only what it shows. The router is React Router's declarative
// one (<BrowserRouter>, useRoutes): the app loads no data through routes, and the data
// router's machinery (loaders, actions, fetchers, revalidation) was ~14 KB of every
// first visit's code, before the app could answer (issue 39). Navigations are
// transitions: the page on screen stays until the next one's code has come.
import { useState, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { NotFoundPage } from '../features/pages/not-found-page';
import { pathOf } from '../lib/app-files';
import { lazyCode } from '../lib/code-wait';
import { RequireAuth } from './guards';
import { RootLayout } from './layouts';
import { pages, type PagePath } from './pages';

/** Each route's code, by the router's path: asked for once, then kept. */
const loads = new Map<PagePath, () => Promise<{ default: ComponentType }>>();
/** The pages whose code has come. */
const loaded = new Map<PagePath, ComponentType>();

/** The route at `path`, drawn by `component` of the page's code (app/pages.ts). */
function page<P extends PagePath>(
  path: P,
  component: (code: Awaited<ReturnType<(typeof pages)[P]>>) => ComponentType,
): RouteObject {
  let asked: Promise<{ default: ComponentType }> | null = null;
  const load = () =>
    (asked ??= pages[path]().then((code) => {
      const Component = component(code as Awaited<ReturnType<(typeof pages)[P]>>);
      loaded.set(path, Component);
      return { default: Component };
    }));
  loads.set(path, load);
  // On a link that carries nothing, said after a while and given up (lib/code-wait.ts).
  const Lazy = lazyCode(load);
  function Page() {
    // A page whose code is here already (the app's first page: boot.tsx) is drawn at once,
    // not after a spinner that React keeps on screen for at least 300 ms. Chosen once per
    // page drawn, so that the page is not drawn anew when its code comes.
    const [Drawn] = useState<ComponentType>(() => loaded.get(path) ?? Lazy);
    return <Drawn />;
  }
  return path === '' ? { index: true, element: <Page /> } : { path, element: <Page /> };
}

/**
 * The code of the page at `pathname`, if it is one of the app's: resolves once it has come
 * or failed (the page then says so when drawn).
 */
export function loadPage(pathname: string): Promise<void> {
  const path = pathOf(pathname, [...loads.keys()]) as PagePath | undefined;
  const load = path === undefined ? undefined : loads.get(path);
  return load
    ? load().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
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
      page('cooperatives', (code) => code.CooperativesPage),
      page('cooperatives/:id', (code) => code.CooperativePage),
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
