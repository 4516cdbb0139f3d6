// The app itself, started by main.tsx (at once, or once the server's first screen has
// painted: lib/first-screen.ts).
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { setupI18n } from '../lib/i18n';

export function boot(container: HTMLElement) {
  setupI18n();
  // As a transition, React renders the app in slices and lets the phone answer taps
  // in between, rather than in one long task on a slow CPU.
  startTransition(() => {
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
