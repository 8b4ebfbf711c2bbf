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
    // Not isolated: in the threads pool (the root vitest.config.ts turns its isolation off), the
    // files of a worker share their modules, so React, TanStack Query, Testing Library and the app
    // load once per worker rather than once per file: a quarter of the CPU time. They share one
    // jsdom window too (./src/test/shared-jsdom-environment.ts: Vitest's own would make a new one
    // per file, which the modules kept from earlier files would not see). src/test/setup.ts leaves
    // the page and the globals as new after each test, src/test/test-scoped.ts disposes of what a
    // test created, and a file that mocks an app module loads its own copies (vi.resetModules()).
    pool: 'threads',
    environment: './src/test/shared-jsdom-environment.ts',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Room for the longer findBy and waitFor timeout (src/test/setup.ts) under load.
    testTimeout: 15_000,
    css: { modules: { classNameStrategy: 'non-scoped' } },
    // In the run's first step, with the unit and infra files in the threads pool (see the root
    // vitest.config.ts).
    sequence: { groupOrder: 0 },
  },
});
