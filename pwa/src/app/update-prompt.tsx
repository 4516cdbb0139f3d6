// A new version of the app waits until the person chooses to load it, so a
// half-filled form is never lost to a reload.
import { useRegisterSW } from 'virtual:pwa-register/react';
import { useTranslation } from 'react-i18next';

export function UpdatePrompt() {
  const { t } = useTranslation();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="status">
      <span>{t('update.available')}</span>
      <button type="button" className="button small" onClick={() => void updateServiceWorker(true)}>
        {t('update.reload')}
      </button>
      <button type="button" className="button small secondary" onClick={() => setNeedRefresh(false)}>
        {t('update.later')}
      </button>
    </div>
  );
}
