// The platform's address, working hours, phone and email as the super admin set them
// (docs/settings.md): the footer of every page and the Contact page. Before the first
// read on a phone the two lines keep their place and say they are busy, so the app takes
// the place of a server's first screen (which has them all) only once it has them too.
import { useTranslation } from 'react-i18next';
import { inLanguage, usePublicSettings, useSettingsPending } from '../lib/settings';
import { ClockIcon, MailIcon, PhoneIcon, PinIcon } from './icons';

const BLANK = '\u00a0';

export function ContactLines() {
  const { t, i18n } = useTranslation();
  const settings = usePublicSettings();
  const contact = settings?.contact;
  // The words around the code, which is a link that opens the dialer (its `#` is `%23`).
  const code = settings?.ussd_code;
  const [before, after] = code ? t('contact.ussd_line', { code: '\u0000' }).split('\u0000') : [];
  const pending = useSettingsPending();
  const language = i18n.resolvedLanguage;
  return (
    <>
      <p className="with-icon" aria-busy={pending || undefined}>
        <PinIcon /> <span className="visually-hidden">{t('contact.address_label')}</span>
        {contact ? inLanguage(contact.address, language) : BLANK}
      </p>
      <p className="with-icon">
        <ClockIcon /> <span className="visually-hidden">{t('contact.hours_label')}</span>
        {contact ? inLanguage(contact.hours, language) : BLANK}
      </p>
      {contact?.phone && (
        <p className="with-icon">
          <PhoneIcon /> <span className="visually-hidden">{t('fields.phone_number')}</span>
          <a href={`tel:${contact.phone}`}>{contact.phone}</a>
        </p>
      )}
      {contact?.email && (
        <p className="with-icon">
          <MailIcon /> <span className="visually-hidden">{t('fields.email')}</span>
          <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </p>
      )}
      {code && (
        <p className="with-icon">
          <PhoneIcon />{' '}
          <span>
            {before}
            <a href={`tel:${code.replace('#', '%23')}`}>{code}</a>
            {after}
          </span>
        </p>
      )}
    </>
  );
}
