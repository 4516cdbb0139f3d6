// A new version of the app waits until the person chooses to load it, so a
// half-filled form is never lost to a reload.
import { useRegisterSW } from 'virtual:pwa-register/react';
import { useTranslation } from 'react-i18next';

/**
 * The build's files this page loaded before its service worker was there (a first visit),
 * kept in the worker's cache of build files: the install leaves some out (the reader's
 * language, vite.config.ts), and they must open offline too. They come from the browser's
 * own cache (immutable), so nothing is downloaded twice.
 */
async function keepLoadedFiles(): Promise<void> {
  await navigator.serviceWorker.ready;
  const files = performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((url) => url.startsWith(`${location.origin}/assets/`));
  const cache = await caches.open('assets');
  for (const url of files) {
    if (!(await caches.match(url))) await cache.add(url).catch(() => undefined);
  }
}

export function UpdatePrompt() {
  const { t } = useTranslation();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({ onRegisteredSW: () => void keepLoadedFiles().catch(() => undefined) });
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
