// @ts-check
// One linter for the whole tree (`npm run lint`); Prettier formats (`npm run format`), so every
// rule about layout is off (eslint-config-prettier, last). Why ESLint + Prettier: docs/decisions.md.
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Scroll boxes take focus so keyboard users can scroll them (axe's scrollable-region-focusable, which the browser tests run). */
const focusableScrollBoxes = ['error', { roles: ['tabpanel', 'region'], tags: ['pre', 'article'] }];

export default tseslint.config(
  {
    // Generated (`npm run openapi`, builds) and run-time data; .gitignore'd folders are not linted either.
    ignores: [
      '**/dist/',
      '**/.astro/',
      'data/',
      'coverage/',
      'test-results/',
      'playwright-report/',
      'screenshots/',
      'packages/client/src/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // A disable comment that no longer disables anything is an error too (each says why it is there).
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{ts,tsx,mjs,js,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      // `_name` marks a deliberately unused parameter or binding (Express's `_next`, `for (const _ of …)`), and a rest
      // sibling drops a field on purpose (`const { secret: _secret, ...shown } = token`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A variable a callback reads before its one assignment stays `let` (main.ts's signal handler, the job worker's id).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // CommonJS config files (dependency-cruiser, jest) load their tools with require().
    files: ['**/*.cjs', 'backend/jest.config.js', 'backend/test/esm-transformer.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // TypeORM types its entity and migration lists as Function[] (DataSourceOptions).
    files: ['backend/src/database/entities.ts', 'migrations/index.ts'],
    rules: { '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
  {
    // Tests read untyped JSON answers (supertest's `body`) and build hostile inputs on purpose.
    files: ['backend/test/**', '**/*.spec.ts', 'frontend/tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The islands and their hooks (not frontend/tests: Playwright's fixtures call their callback `use`).
    files: ['frontend/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // An effect that deliberately runs on fewer changes says why beside an eslint-disable line.
      'react-hooks/exhaustive-deps': 'error',
      // eslint-plugin-react-hooks 7's other recommended rules are the React Compiler's: the islands are not compiled
      // by it, and what they flag (a ref holding the latest callback read during render, state reset by an effect when
      // a prop changes, Date.now() for a countdown) is correct React without it.
    },
  },
  {
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Focus moves on purpose: into a dialog's first field (WAI-ARIA dialog pattern), into a reply or edit box the
      // reader just opened, into the code field of the second sign-in step.
      'jsx-a11y/no-autofocus': 'off',
      'jsx-a11y/no-noninteractive-tabindex': focusableScrollBoxes,
      // A label wrapping its checkbox and a <span> of text (label > input + span > text) is associated by nesting.
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
    },
  },
  ...astro.configs['flat/recommended'],
  ...astro.configs['flat/jsx-a11y-recommended'].map((config) => ({ ...config, files: config.files ?? ['**/*.astro'] })),
  {
    files: ['**/*.astro'],
    rules: {
      // `role` on a component is its prop (<DashboardLayout role="ADMIN">), not an ARIA role: only DOM elements are checked.
      'astro/jsx-a11y/aria-role': ['error', { ignoreNonDOM: true }],
      'astro/jsx-a11y/no-noninteractive-tabindex': focusableScrollBoxes,
    },
  },
  prettier,
);
