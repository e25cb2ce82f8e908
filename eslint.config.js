// ESLint over the generator (src, test, scripts, bin) and the emitted package in generated/: the recommended rules of
// ESLint and typescript-eslint, nothing stylistic (Prettier owns the layout). Not type-aware, to stay quick in CI.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Build output; the example catalogue's tool sources (catalogue data, run in the sandbox); the generated package's
  // copy of src/runtime, linted where it stands.
  globalIgnores(['**/dist/', '**/node_modules/', '.tmp/', 'examples/', 'generated/src/runtime/', 'generated/data/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A `_` prefix says a parameter or binding is unused on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A `let` that closures declared before it read (a request handle set once it exists) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read into JSON answers whose shape the assertions themselves check.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
