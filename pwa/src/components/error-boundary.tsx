// Shows a translated message with "Try again" when a part of a screen fails
// (e.g. the phone's storage cannot be opened), instead of a blank page.
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from './icons';

interface Props {
  children: ReactNode;
  /** Shows the children again when it changes (the page's address, for the page's boundary). */
  resetKey?: string;
  /** What "Try again" does; by default the part is drawn again. */
  retry?(): void;
}

export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return <Failed onRetry={this.props.retry ?? (() => this.setState({ failed: false }))} />;
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
