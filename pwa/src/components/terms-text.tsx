// The terms of use and privacy notice (locales: terms.*), shown on /terms and /privacy
// and, from the sign-up form, in a dialog that keeps what the person typed.
import { useTranslation } from 'react-i18next';

export const TERMS_SECTIONS = [
  'account',
  'market',
  'payments',
  'data',
  'sharing',
  'choices',
  'phone',
  'contact',
] as const;

export function TermsText({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="terms-text">
      <p className="muted">{t('terms.updated')}</p>
      <p className="lead">{t('terms.intro')}</p>
      {TERMS_SECTIONS.map((key) => (
        <section key={key} id={key === 'data' ? 'privacy' : key} aria-labelledby={`terms-${key}`}>
          <Heading id={`terms-${key}`}>{t(`terms.sections.${key}.title`)}</Heading>
          <p>{t(`terms.sections.${key}.body`)}</p>
        </section>
      ))}
    </div>
  );
}
