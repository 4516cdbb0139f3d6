// A screen whose data could not be loaded: what failed, why (the server's
// words, translated, or the screen's own), and a way to try again.
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorMessages } from '../lib/error-text';

export function LoadFailed({
  title,
  error,
  fallbackKey,
  onRetry,
}: {
  title: string;
  error: unknown;
  fallbackKey: ParseKeys;
  onRetry(): void;
}) {
  const { t } = useTranslation();
  return (
    <section className="card coming-soon" role="alert">
      <h2>{title}</h2>
      <p>{errorMessages(error, t, fallbackKey)[0]}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('common.try_again')}
      </button>
    </section>
  );
}
