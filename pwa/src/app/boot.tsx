// The app itself, started by main.tsx (at once, or once the server's first screen has
// painted: lib/first-screen.ts).
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createRouter } from './router';
import { setupI18n } from '../lib/i18n';

export function boot(container: HTMLElement) {
  setupI18n();
  const root = createRoot(container);
  // The router (which ranks every route) is made in a task of its own: made with the
  // app's code, it lengthened one long task on a slow phone by a fifth.
  window.setTimeout(() => {
    const router = createRouter();
    // As a transition, React renders the app in slices and lets the phone answer taps
    // in between, rather than in one long task on a slow CPU.
    startTransition(() => {
      root.render(
        <StrictMode>
          <App router={router} />
        </StrictMode>,
      );
    });
  });
}
