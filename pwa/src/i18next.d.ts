// Typed translation keys (as excalidraw's TranslationKeys): a key given to t()
// must name a key of the English catalogue, so a missing key fails to compile.
// French and Kiswahili are held to the same keys by locales/catalogues.test.ts.
import 'i18next';
import type en from './locales/en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
