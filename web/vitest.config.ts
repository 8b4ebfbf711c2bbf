import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { alias } from './vite.config';

export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Room for the longer findBy and waitFor timeout (src/test/setup.ts) under load.
    testTimeout: 15_000,
    css: { modules: { classNameStrategy: 'non-scoped' } },
    // In the run's second step, with the other isolated projects (see the root vitest.config.ts).
    sequence: { groupOrder: 1 },
  },
});
