// Shows a translated message with "Try again" when a part of a screen fails
// (e.g. the phone's storage cannot be opened), instead of a blank page.
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from './icons';

interface Props {
  children: ReactNode;
}

export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return <Failed onRetry={() => this.setState({ failed: false })} />;
  }
}

function Failed({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <section className="card coming-soon" role="alert">
      <AlertIcon />
      <p>{t('common.section_failed')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('common.try_again')}
      </button>
    </section>
  );
}
