// Where each page's code is, by the router's path: app/router.tsx makes its routes from
// this table, and the build (vite.config.ts, `preloadBoot`) lists each page's files by the
// same paths for the page's first script (lib/app-files.ts), which asks for the opened
// page's files with the app's rather than once the app has run and the router has matched
// the path (on slow 3G a round trip and the page's files after the app's, ~0.5 s).
// Keep each entry on one line, a path and its import: the build reads them so.

export const pages = {
  '': () => import('../features/home/home-page'),
  login: () => import('../features/auth/login-page'),
  register: () => import('../features/auth/register-page'),
  about: () => import('../features/pages/about-page'),
  programs: () => import('../features/pages/programs-page'),
  contact: () => import('../features/pages/contact-page'),
  'forgot-password': () => import('../features/auth/password-reset-pages'),
  'reset-password': () => import('../features/auth/password-reset-pages'),
  terms: () => import('../features/pages/terms-page'),
  privacy: () => import('../features/pages/terms-page'),
  help: () => import('../features/pages/help-page'),
  marketplace: () => import('../features/marketplace/marketplace-page'),
  'product/:id': () => import('../features/marketplace/product-page'),
  cart: () => import('../features/cart/cart-page'),
  training: () => import('../features/training/training-page'),
  'course/:id': () => import('../features/training/course-page'),
  'certificates/:code': () => import('../features/training/certificate-page'),
  news: () => import('../features/news/news-page'),
  prices: () => import('../features/prices/prices-page'),
  'news/:id': () => import('../features/news/article-page'),
  cooperatives: () => import('../features/cooperatives/cooperative-pages'),
  'cooperatives/:id': () => import('../features/cooperatives/cooperative-pages'),
  // Signed in (RequireAuth).
  dashboard: () => import('./dashboard/dashboard-page'),
  profile: () => import('../features/profile/profile-page'),
  orders: () => import('../features/orders/orders-page'),
  'learn/:id': () => import('../features/training/learn-page'),
  checkout: () => import('../features/checkout/checkout-page'),
};

export type PagePath = keyof typeof pages;
