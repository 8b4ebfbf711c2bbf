import js from '@eslint/js';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const REPO = dirname(fileURLToPath(import.meta.url));
const WEB_SRC = resolve(REPO, 'web', 'src');
const SHARED = resolve(REPO, 'shared');

/** Where a path stands in the web app: its feature (web/src/features/<name>), or the shared lib and components. */
function webArea(path) {
  const [top, name] = relative(WEB_SRC, path).split(sep);
  if (top === 'features' && name) return { feature: name };
  return { shared: top === 'lib' || top === 'components' };
}

/**
 * Reads each relative import where it lands, however many `../` it takes: a feature imports no
 * other feature, the shared lib and components import none at all (the app shell composes them),
 * and shared/ is imported as @shared/….
 */
const webImports = {
  rules: {
    'feature-boundaries': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          otherFeature:
            'Features must not import each other ({{ target }}): move what both use to web/src/components or web/src/lib.',
          featureFromShared: 'web/src/{{ area }} must not import a feature ({{ target }}): move what it needs here.',
          sharedByAlias: 'Import shared/ as @shared/… (web/tsconfig.json paths), not by a relative path.',
        },
      },
      create(context) {
        const from = webArea(context.filename);
        const check = (node) => {
          const source = node.source;
          if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
          const target = resolve(dirname(context.filename), source.value);
          if (target === SHARED || target.startsWith(SHARED + sep)) {
            context.report({ node: source, messageId: 'sharedByAlias' });
            return;
          }
          const to = webArea(target);
          if (!to.feature) return;
          if (from.feature && from.feature !== to.feature) {
            context.report({ node: source, messageId: 'otherFeature', data: { target: `features/${to.feature}` } });
          } else if (from.shared) {
            const area = relative(WEB_SRC, context.filename).split(sep)[0];
            context.report({ node: source, messageId: 'featureFromShared', data: { area, target: `features/${to.feature}` } });
          }
        };
        return {
          ImportDeclaration: check,
          ImportExpression: check,
          ExportAllDeclaration: check,
          ExportNamedDeclaration: check,
        };
      },
    },
  },
};

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
    // A Lambda's module scope runs on every cold start. The first Intl formatter a process builds
    // loads ICU's locale data (12 to 17 ms, a third of a handler's import): build one inside the
    // function that needs it, or write a count with shared/format-count.
    files: ['functions/**/*.ts', 'shared/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.object.name='Intl']:not(:function NewExpression)",
          message: 'No Intl formatter at module scope: it costs every cold start; build it where it is used.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^toLocale/]:not(:function CallExpression)',
          message: 'No toLocale…() at module scope: it loads ICU on every cold start; use shared/format-count.',
        },
      ],
    },
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
    // Features stay independent: shared code lives in web/src/{lib,components}, and shared/ comes in as @shared/….
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { web: webImports },
    rules: { 'web/feature-boundaries': 'error' },
  },
  {
    // Every in-app link prefetches its page as it nears the viewport (the spec's 200 px margin):
    // react-router's own Link would not, so it is reached only through components/prefetch-link.
    files: ['web/src/**/*.tsx'],
    ignores: ['web/src/components/prefetch-link.tsx', 'web/src/**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...zodEntryPoints,
            {
              name: 'react-router',
              importNames: ['Link'],
              message: 'Use PrefetchLink from web/src/components/prefetch-link: it prefetches the page it leads to.',
            },
          ],
        },
      ],
    },
  },
);
