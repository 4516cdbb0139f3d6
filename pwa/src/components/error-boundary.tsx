// Shows a translated message with "Try again" when a part of a screen fails
// (e.g. the phone's storage cannot be opened, or a page's code never came to this
// phone and the network is gone, or it did not come over a link that carries nothing),
// instead of a blank page.
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeStalled } from '../lib/code-wait';
import { useOnline } from '../lib/use-online';
import { AlertIcon } from './icons';

interface Props {
  children: ReactNode;
  /** Shows the children again when it changes (the page's address, for the page's boundary). */
  resetKey?: string;
  /** What "Try again" does; by default the part is drawn again (its code, loaded anew). */
  retry?(): void;
}

type Failure = 'code' | 'other';

/** A file of the app's code that did not come (Chromium, Firefox, Safari, Vite's loader of styles). */
const CODE_MISSING = /dynamically imported module|Importing a module script failed|Unable to preload CSS/;

export class ErrorBoundary extends Component<Props, { failed: Failure | null }> {
  state = { failed: null as Failure | null };

  static getDerivedStateFromError(error: unknown): { failed: Failure } {
    const code = error instanceof CodeStalled || (error instanceof Error && CODE_MISSING.test(error.message));
    return { failed: code ? 'code' : 'other' };
  }

  componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: null });
  }

  render() {
    const { failed } = this.state;
    if (!failed) return this.props.children;
    // Code that failed to come keeps failing until the app is loaded anew (React's lazy
    // and the browser's module map both keep the failure).
    const retry = failed === 'other' ? this.props.retry : () => window.location.reload();
    return <Failed failed={failed} onRetry={retry ?? (() => this.setState({ failed: null }))} />;
  }
}

const WORDS = {
  code_missing: ['common.page_not_here_title', 'common.page_not_here'],
  code_stalled: ['common.page_stalled_title', 'common.page_stalled'],
  other: [null, 'common.section_failed'],
} as const;

function Failed({ failed, onRetry }: { failed: Failure; onRetry(): void }) {
  const { t } = useTranslation();
  // Code that did not come: offline, the page never opened on this phone; online, the
  // network did not carry it (the service worker gives up a file that hears nothing:
  // lib/code-wait.ts). Said as the phone's state is now, not as it was at the failure.
  const online = useOnline();
  const [title, text] = WORDS[failed === 'other' ? 'other' : online ? 'code_stalled' : 'code_missing'];
  return (
    <section className="card coming-soon" role="alert">
      <AlertIcon />
      {title && <h2>{t(title)}</h2>}
      <p>{t(text)}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('common.try_again')}
      </button>
    </section>
  );
}
