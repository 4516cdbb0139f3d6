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
  | 'cooperatives'
  | 'cooperative'
  | 'not_found';

/** A record's own words for its page (a product's name, an article's summary). */
export interface Named {
  title: string;
  description?: string;
}

/**
 * Titles the page `key`'s words, or `named`'s once the record is known. While it is
 * still being read (`'loading'`), the title is left as it is: on a first visit it is
 * the record's own, written by the server, and the page's generic words would flash.
 */
export function usePageHead(key: PageKey, named?: Named | null | 'loading') {
  const { t } = useTranslation();
  const record = named === 'loading' ? undefined : named;
  const page = record?.title ?? t(`pages.${key}.title`);
  const full = key === 'home' && !record ? page : t('pages.title_format', { page });
  const summary = record?.description ?? t(`pages.${key}.description`);
  const loading = named === 'loading';
  useEffect(() => {
    if (loading) return;
    document.title = full;
    document.querySelector('meta[name="description"]')?.setAttribute('content', summary);
  }, [full, summary, loading]);
}
