// Every route in one place (docs/product.md, Screens).
export const paths = {
  home: '/',
  marketplace: '/marketplace',
  product: (id: string | number) => `/product/${id}`,
  cart: '/cart',
  login: '/login',
  register: '/register',
  training: '/training',
  course: (id: string | number) => `/course/${id}`,
  learn: (id: string | number) => `/learn/${id}`,
  certificate: (code: string) => `/certificates/${code}`,
  about: '/about',
  programs: '/programs',
  news: '/news',
  prices: '/prices',
  cooperatives: '/cooperatives',
  cooperative: (id: string | number) => `/cooperatives/${id}`,
  article: (id: string | number) => `/news/${id}`,
  contact: '/contact',
  terms: '/terms',
  privacy: '/privacy',
  help: '/help',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  checkout: '/checkout',
  profile: '/profile',
  orders: '/orders',
} as const;

/** Where to go after signing in: a page of this app the person came from, never another site. */
export function returnPath(from: unknown): string | null {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return null;
  return from.startsWith(paths.login) ? null : from;
}

/** Screens of the signed-in area show no public header or footer. */
export function isAppArea(pathname: string): boolean {
  return ['/dashboard', '/profile', '/orders', '/checkout', '/learn'].some(
    (p) => pathname === p || pathname.startsWith(`${p}/`),
  );
}
