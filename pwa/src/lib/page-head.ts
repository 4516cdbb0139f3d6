// Each route's title and description in the reader's language (the server writes the
// same words into the first HTML it sends: server/src/web/page.rs), kept up to date as
// the person moves around and changes language.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export type PageKey =
  | 'home'
  | 'marketplace'
  | 'product'
  | 'training'
  | 'course'
  | 'news'
  | 'prices'
  | 'article'
  | 'about'
  | 'programs'
  | 'contact'
  | 'login'
  | 'register'
  | 'forgot_password'
  | 'reset_password'
  | 'terms'
  | 'help'
  | 'cart'
  | 'checkout'
  | 'orders'
  | 'dashboard'
  | 'profile'
  | 'learn'
  | 'certificate'
  | 'not_found';

/**
 * Titles the page `key`'s words, or `title`/`description` when given (a product's
 * name, an article's summary) once they are known.
 */
export function usePageHead(key: PageKey, title?: string, description?: string) {
  const { t } = useTranslation();
  const page = title ?? t(`pages.${key}.title`);
  const full = key === 'home' && !title ? page : t('pages.title_format', { page });
  const summary = description ?? t(`pages.${key}.description`);
  useEffect(() => {
    document.title = full;
    document.querySelector('meta[name="description"]')?.setAttribute('content', summary);
  }, [full, summary]);
}
