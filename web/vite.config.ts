import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Rollup } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * `@shared/…` is the repo's shared/ (the zod schemas and the route table the server uses too), as
 * in tsconfig.json's paths. vitest.config.ts and the root one (for the web modules the Node tests
 * load) resolve it the same way.
 */
export const alias = { '@shared': fileURLToPath(new URL('../shared', import.meta.url)) };

/**
 * zod's published files (as on npm, not patched here) carry two prose comments that mention
 * `@__PURE__` (v4/core/util.js and regexes.js explain why a constant is wrapped or built through a
 * helper). Rollup reads any comment naming `@__PURE__` as an annotation, finds it before no call,
 * warns with INVALID_ANNOTATION and drops the comment: the bundle is the same, and zod's real
 * annotations, on the lines after, still apply. Only that warning, and only for zod's files, is
 * dropped; every other warning, from zod or elsewhere, is printed as before.
 */
export function isExpectedRollupWarning(warning: Rollup.RollupLog): boolean {
  return warning.code === 'INVALID_ANNOTATION' && /[\\/]node_modules[\\/]zod[\\/]/.test(warning.id ?? '');
}

export default defineConfig({
  root,
  plugins: [react()],
  resolve: { alias },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Just above Braintree's Drop-in chunk (dropin-*.js, 518 kB), which loads only at checkout in AWS.
    chunkSizeWarningLimit: 520,
    // No modulepreload lists: they put the names of every lazy chunk's dependencies in every first
    // load (2 KB of gzip). A page's chunk brings its own imports as the browser reads it, and
    // public pages arrive as HTML (functions/web-pages), so nothing on screen waits for that.
    // Lazy chunks' CSS is still loaded with them.
    modulePreload: false,
    // One chunk for React and the router that every route needs; routes split on their own.
    rollupOptions: {
      onwarn(warning, warn) {
        if (!isExpectedRollupWarning(warning)) warn(warning);
      },
      output: {
        manualChunks: { react: ['react', 'react-dom', 'react-dom/client', 'react-router'] },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
