// For screens whose feature arrives with a later piece of work: says so
// plainly, in the person's language, and offers a way on.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type en from '../locales/en.json';
import { ClockIcon } from './icons';

export function ComingSoon({ feature }: { feature: keyof (typeof en)['coming'] }) {
  const { t } = useTranslation();
  return (
    <section className="page narrow coming-soon">
      <ClockIcon />
      <h1>{t(`coming.${feature}.title`)}</h1>
      <p>{t(`coming.${feature}.body`)}</p>
      <Link className="button" to="/">
        {t('common.back_home')}
      </Link>
    </section>
  );
}
