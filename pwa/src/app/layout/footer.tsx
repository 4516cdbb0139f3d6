import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { ContactLines } from '../../components/contact-lines';
import { Logo } from '../../components/logo';
import { LanguagePicker } from '../../components/language-picker';

const QUICK_LINKS = [
  ['marketplace', paths.marketplace],
  ['prices', paths.prices],
  ['cooperatives', paths.cooperatives],
  ['training', paths.training],
  ['programs', paths.programs],
  ['about', paths.about],
  ['news', paths.news],
  ['contact', paths.contact],
  ['help', paths.help],
  ['terms', paths.terms],
] as const;

/** The year the app was opened in (the copyright line). */
const YEAR = new Date().getFullYear();

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <div className="footer-about">
          <Logo />
          <p>{t('footer.description')}</p>
          <ContactLines />
        </div>
        <nav aria-label={t('footer.quick_links')}>
          <h2>{t('footer.quick_links')}</h2>
          <ul>
            {QUICK_LINKS.map(([key, to]) => (
              <li key={key}>
                <Link to={to}>{t(`nav.${key}`)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2>{t('common.language')}</h2>
          <LanguagePicker />
        </div>
      </div>
      <p className="copyright">{t('footer.copyright', { year: YEAR })}</p>
    </footer>
  );
}
