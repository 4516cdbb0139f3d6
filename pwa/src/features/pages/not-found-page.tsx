import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { usePageHead } from '../../lib/page-head';

export function NotFoundPage() {
  usePageHead('not_found');
  const { t } = useTranslation();
  return (
    <section className="page narrow coming-soon">
      <h1>{t('not_found.title')}</h1>
      <p>{t('not_found.body')}</p>
      <Link className="button" to={paths.home}>
        {t('common.back_home')}
      </Link>
    </section>
  );
}
