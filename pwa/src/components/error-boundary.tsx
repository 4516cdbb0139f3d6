// Shows a translated message with "Try again" when a part of a screen fails
// (e.g. the phone's storage cannot be opened, or a page's code never came to this
// phone and the network is gone), instead of a blank page.
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

/** A file of the app's code that did not come (Chromium, Firefox, Safari, Vite's loader of styles). */
const CODE_MISSING = /dynamically imported module|Importing a module script failed|Unable to preload CSS/;

export class ErrorBoundary extends Component<Props, { failed: boolean; codeMissing: boolean }> {
  state = { failed: false, codeMissing: false };

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, codeMissing: error instanceof Error && CODE_MISSING.test(error.message) };
  }

  componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Failed
        codeMissing={this.state.codeMissing}
        onRetry={this.props.retry ?? (() => this.setState({ failed: false }))}
      />
    );
  }
}

function Failed({ codeMissing, onRetry }: { codeMissing: boolean; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <section className="card coming-soon" role="alert">
      <AlertIcon />
      {codeMissing && <h2>{t('common.page_not_here_title')}</h2>}
      <p>{t(codeMissing ? 'common.page_not_here' : 'common.section_failed')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('common.try_again')}
      </button>
    </section>
  );
}
