import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Schemas come from shared/zod.ts (zod's mini build, English messages): classic zod costs every cold start. */
const zodThroughSharedModule = {
  name: 'zod',
  message: "Import zod from shared/zod.ts: it is zod's mini build with English messages.",
};
const zodEntryPoints = ['zod', 'zod/mini', 'zod/v4', 'zod/v4/mini', 'zod/v4-mini', 'zod/v3'].map((name) => ({
  ...zodThroughSharedModule,
  name,
}));

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'cdk.out', '.data', 'web/dist', 'coverage', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-imports': ['error', { paths: zodEntryPoints }],
    },
  },
  {
    files: ['shared/zod.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The local runtime, the benchmarks and the CLIs talk to a person at a terminal.
    files: ['infra/local/**', 'test/bench/**', 'infra/cdk/**', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Plain scripts the page loads as they are (public/), in the browser.
    files: ['web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Features stay independent: shared code lives in web/src/{lib,components}.
    files: ['web/src/features/ranking/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: zodEntryPoints,
          patterns: [{ group: ['**/features/*/**', '!**/features/ranking/**'], message: 'Features must not import each other.' }],
        },
      ],
    },
  },
);
