// Home (docs/product.md, Screens): a two-slide hero that moves on every 5 seconds
// (unless the person prefers reduced motion), the six pillars, and impact.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { ChevronLeft, ChevronRight, PinIcon } from '../../components/icons';
import { usePageHead } from '../../lib/page-head';

export const HERO_INTERVAL_MS = 5000;
const SLIDES = [0, 1] as const;
const PILLARS = ['inclusive', 'climate', 'water', 'markets', 'knowledge', 'community'] as const;
const IMPACT = ['trained', 'farmers', 'smallholders', 'hectares'] as const;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function HomePage() {
  usePageHead('home');
  const { t } = useTranslation();
  const [slide, setSlide] = useState(0);
  useEffect(() => {
    if (prefersReducedMotion()) return;
    const timer = window.setInterval(() => setSlide((s) => (s + 1) % SLIDES.length), HERO_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [slide]);
  const current = SLIDES[slide] ?? 0;
  const step = (by: number) => setSlide((s) => (s + by + SLIDES.length) % SLIDES.length);

  return (
    <>
      <section className="hero" aria-roledescription="carousel" aria-label={t('home.hero_label')}>
        <div className="hero-inner">
          <div className="hero-text" aria-live="polite">
            <p className="eyebrow">{t(`home.slides.${current}.eyebrow`)}</p>
            <h1>{t(`home.slides.${current}.title`)}</h1>
            <p>{t(`home.slides.${current}.body`)}</p>
            <div className="actions">
              <Link to={paths.about} className="button gold">
                {t('home.learn_more')}
              </Link>
              <Link to={paths.register} className="button light">
                {t('home.join')}
              </Link>
            </div>
            <p className="with-icon address">
              <PinIcon /> {t('contact.address')}
            </p>
          </div>
          <div className="hero-controls">
            <button
              type="button"
              className="icon-button light"
              onClick={() => step(-1)}
              aria-label={t('home.previous')}
            >
              <ChevronLeft />
            </button>
            <span className="hero-dots" aria-hidden="true">
              {SLIDES.map((n) => (
                <span key={n} className={n === slide ? 'dot active' : 'dot'} />
              ))}
            </span>
            <button type="button" className="icon-button light" onClick={() => step(1)} aria-label={t('home.next')}>
              <ChevronRight />
            </button>
          </div>
        </div>
      </section>

      <section className="page" aria-labelledby="pillars">
        <h2 id="pillars" className="section-title">
          {t('home.pillars_title')}
        </h2>
        <ol className="pillars">
          {PILLARS.map((key, index) => (
            <li key={key} className="card pillar">
              <span className="pillar-number" aria-hidden="true">
                {String(index + 1).padStart(2, '0')}
              </span>
              <h3>{t(`pillars.${key}.title`)}</h3>
              <p>{t(`pillars.${key}.body`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="impact" aria-labelledby="impact">
        <div className="page">
          <h2 id="impact" className="section-title">
            {t('home.impact_title')}
          </h2>
          <p className="lead">{t('home.impact_intro')}</p>
          <ul className="impact-grid">
            {IMPACT.map((key) => (
              <li key={key}>
                <strong>{t(`home.impact.${key}.figure`)}</strong>
                <span>{t(`home.impact.${key}.label`)}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="page cta" aria-labelledby="cta">
        <h2 id="cta">{t('home.cta_title')}</h2>
        <p>{t('home.cta_body')}</p>
        <div className="actions">
          <Link to={paths.register} className="button">
            {t('nav.register')}
          </Link>
          <Link to={paths.programs} className="button secondary">
            {t('nav.programs')}
          </Link>
        </div>
      </section>
    </>
  );
}
