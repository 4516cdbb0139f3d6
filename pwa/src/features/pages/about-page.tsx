import { useTranslation } from 'react-i18next';
import { usePageHead } from '../../lib/page-head';

const VALUES = ['innovation', 'integrity', 'inclusion', 'resilience', 'sustainability'] as const;
const REASONS = ['local', 'offline', 'whole_chain'] as const;

export function AboutPage() {
  usePageHead('about');
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1>{t('about.title')}</h1>
      <p className="lead">{t('about.intro')}</p>
      <section aria-labelledby="why-us">
        <h2 id="why-us">{t('about.why_title')}</h2>
        <ul className="cards-grid">
          {REASONS.map((key) => (
            <li key={key} className="card">
              <h3>{t(`about.why.${key}.title`)}</h3>
              <p>{t(`about.why.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <div className="cards-grid two">
        <section className="card" aria-labelledby="mission">
          <h2 id="mission">{t('about.mission_title')}</h2>
          <p>{t('about.mission')}</p>
        </section>
        <section className="card" aria-labelledby="vision">
          <h2 id="vision">{t('about.vision_title')}</h2>
          <p>{t('about.vision')}</p>
        </section>
      </div>
      <section aria-labelledby="values">
        <h2 id="values">{t('about.values_title')}</h2>
        <ul className="cards-grid">
          {VALUES.map((key) => (
            <li key={key} className="card">
              <h3>{t(`about.values.${key}.title`)}</h3>
              <p>{t(`about.values.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
