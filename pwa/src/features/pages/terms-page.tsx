import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TermsText } from '../../components/terms-text';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';

/** /terms, and /privacy which opens it at what we keep about you. */
export function TermsPage() {
  usePageHead('terms');
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname === paths.privacy) document.getElementById('privacy')?.scrollIntoView();
  }, [pathname]);
  return (
    <article className="page narrow terms-page">
      <h1>{t('terms.title')}</h1>
      <TermsText />
    </article>
  );
}
