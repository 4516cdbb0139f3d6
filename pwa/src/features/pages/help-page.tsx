import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';
import { usePublicSettings } from '../../lib/settings';

const QUESTIONS = ['offline', 'waiting', 'buy', 'pay', 'farmer', 'course', 'password', 'data', 'basic_phone'] as const;

/** The help centre: the questions people ask most, each opening its answer. */
export function HelpPage() {
  usePageHead('help');
  const { t } = useTranslation();
  // What a basic phone dials (the basic-phone question): the USSD code once it is set.
  const dial = usePublicSettings()?.ussd_code || t('contact.dial_code');
  return (
    <section className="page narrow help-page" aria-labelledby="help-title">
      <h1 id="help-title">{t('help.title')}</h1>
      <p className="lead">{t('help.intro')}</p>
      {QUESTIONS.map((key) => (
        <details key={key} className="card faq">
          <summary>{t(`help.questions.${key}.q`)}</summary>
          <p>{t(`help.questions.${key}.a`, { dial })}</p>
        </details>
      ))}
      <p>
        <Link className="button secondary" to={paths.contact}>
          {t('nav.contact')}
        </Link>{' '}
        <Link to={paths.terms}>{t('nav.terms')}</Link>
      </p>
    </section>
  );
}
