// The app itself, started by main.tsx (at once, or once the server's first screen has
// painted: lib/first-screen.ts).
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadPage } from './router';
import { cachedUserId, keepSession } from '../lib/session';
import { addSignedInWords, languageDetector, setupI18n, signedInWords, wordsReady } from '../lib/i18n';
import { guessLanguage } from '../lib/languages';
import { onPrepareHome } from '../lib/app-files';
import { paths, returnPath } from '../lib/paths';
import type { SignedIn } from '../lib/early-sign-in';

/**
 * `signedIn`: a sign-in pressed in the server's first screen, answered before the app's
 * code came (lib/early-sign-in.ts): the app opens where the app's own sign-in would have
 * gone (the home, or the page `?next=` names), without drawing its form first.
 */
export function boot(container: HTMLElement, signedIn?: SignedIn | null) {
  if (signedIn) {
    keepSession(signedIn);
    // The address changes: the language it named (`?lng`) is kept as i18next keeps it.
    languageDetector.cacheUserLanguage?.(guessLanguage());
    const next = returnPath(new URLSearchParams(location.search).get('next'));
    history.replaceState(null, '', next ?? paths.dashboard);
  }
  setupI18n();
  // Someone filling a sign-in form: the home is drawn at once when the server answers.
  onPrepareHome(() => {
    void loadPage(paths.dashboard);
    void addSignedInWords(true).catch(() => undefined);
  });
  // The first render waits for the reader's words (and, for someone signed in, the
  // signed-in screens' words) and the opened page's code, asked for with the app's
  // (main.tsx), so that it draws the page, not a spinner: React keeps a spinner it has
  // shown for at least 300 ms (a phone that signed in before opened its sign-in form
  // ~0.3 s later for it).
  const words = wordsReady().then(() => (cachedUserId() === null ? undefined : signedInWords().catch(() => undefined)));
  void Promise.all([words, loadPage(location.pathname)]).then(() => {
    // As a transition, React renders the app in slices and lets the phone answer taps
    // in between, rather than in one long task on a slow CPU.
    startTransition(() => {
      createRoot(container).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });
}
