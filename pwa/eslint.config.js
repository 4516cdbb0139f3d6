// The PWA's lint gate (scripts/test runs it). Besides typescript-eslint and
// the rules of hooks, it holds the layers of docs/architecture.md:
// shared code (components, lib, locales) → features → app, one way, and no
// feature importing another (bulletproof-react's import zones).
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist/', 'dev-dist/', 'node_modules/', 'src/lib/sync/protocol.ts', 'src/lib/sync/records.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      // Every import of our own code is relative, so Node's resolution with
      // TypeScript's extensions finds it (no native resolver to install).
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The React Compiler's advice against setting state in an effect flags
      // eight older screens (object URLs, dialogs reset on open); they are
      // correct as they are, and reworking them is its own change.
      'react-hooks/set-state-in-effect': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // A feature is composed by the app; it never reaches into another feature.
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message:
                'Features do not import each other: move what they share to components/ or lib/, or compose them in app/.',
            })),
            {
              target: ['./src/components', './src/lib', './src/locales'],
              from: ['./src/features', './src/app'],
              message: 'Shared code does not import features or the app.',
            },
            {
              target: ['./src/lib/sync/local-db.ts', './src/lib/sync/stored.ts'],
              from: './src/lib/entities',
              message: 'The local database stores what sync/stored.ts says: entities import it, never the other way.',
            },
            {
              target: './src/features',
              from: './src/app',
              message: 'Features do not import the app: the app composes features.',
            },
          ],
        },
      ],
    },
  },
  {
    // Browser tests hand functions to page.evaluate, which run in the page.
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.js', '*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
