import { useTranslation } from 'react-i18next';
import { usePageHead } from '../../lib/page-head';

const PROGRAMS = ['climate_smart', 'business_school', 'water_climate'] as const;

export function ProgramsPage() {
  usePageHead('programs');
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1>{t('programs.title')}</h1>
      <p className="lead">{t('programs.intro')}</p>
      <ol className="programs">
        {PROGRAMS.map((key, index) => (
          <li key={key} className={`card program ${index % 2 === 1 ? 'flip' : ''}`}>
            <span className="program-number" aria-hidden="true">
              {String(index + 1).padStart(2, '0')}
            </span>
            <div>
              <h2>{t(`programs.items.${key}.title`)}</h2>
              <p className="tagline">{t(`programs.items.${key}.tagline`)}</p>
              <p>{t(`programs.items.${key}.body`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
