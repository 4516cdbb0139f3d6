import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from './icons';
import { chooseLanguage, currentLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../lib/i18n';

/** Changes the language at once; the choice is kept on this device. */
export function LanguagePicker() {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="language-picker">
      <GlobeIcon />
      <label htmlFor={id} className="visually-hidden">
        {t('common.language')}
      </label>
      <select id={id} value={currentLanguage()} onChange={(e) => void chooseLanguage(e.target.value as Language)}>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
