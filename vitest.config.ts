import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { DurationsSequencer } from './test/support/durations-sequencer';

const quietAws = {
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/**
 * Four projects in two steps. First the unit and infra files, then the web app's, in worker
 * threads that keep their modules from one file to the next: aws-cdk-lib, the SDK and the route
 * table load once per worker instead of once per file, which halves those files' CPU time, and so
 * do React, TanStack Query, Testing Library and the app, which cuts the web files' to a quarter.
 * They set up what they need in hooks and depend on no fresh module; the web files also share a
 * jsdom window, left as new after each test (web/vitest.config.ts). Then, in forks, the
 * integration files (a local runtime each, whose handlers read their config at import) and the
 * browser suites. The forks are shared too, but each of their files starts on fresh modules of
 * ours and the process as the worker started (test/support/fresh-file.ts): only node_modules
 * stay loaded (the SDK, ElectroDB, Playwright), which took a quarter of those files' CPU time
 * when each file had a process of its own. Vitest sizes each pool on its own and runs pools side
 * by side, so the two steps keep the run at two workers on this two-core machine rather than four.
 */
export default defineConfig({
  test: {
    // Two files at a time. Vitest's default (one worker per core but one) would be a single one
    // here; a third made the run slower and flakier, as Java and Chromium already keep both
    // cores busy.
    maxWorkers: 2,
    minWorkers: 1,
    // Per pool, not per project: the threads pool is the unit, infra and web projects' alone.
    poolOptions: { threads: { isolate: false }, forks: { isolate: false } },
    // Longest files first, from the last run's durations or, on a fresh clone, the recorded ones.
    sequence: { sequencer: DurationsSequencer },
    projects: [
      {
        // web/'s alias for shared/ (web/vite.config.ts), for the web modules the unit files load.
        resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts'],
          pool: 'threads',
          sequence: { groupOrder: 0 },
          globalSetup: ['test/support/global-setup.ts', 'test/support/cdk-out-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // CloudFormation's own rules (aws-cdk-lib's built-in template validation, which fails
          // synth on a finding: cdk.json) cost about 11 CPU s on a process's first synthesis and
          // 2 s on each one after. These suites assert the templates' properties; the rules run
          // on the deployable apps in cdk-app-settings.test.ts, synthesized as `cdk synth` does.
          env: { ...quietAws, CDK_VALIDATION: 'false' },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          setupFiles: ['test/support/fresh-file.ts'],
          // One DynamoDB Local for the run; each suite makes its own table in it.
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
          sequence: { groupOrder: 1 },
          env: quietAws,
        },
      },
      'web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/support/fresh-file.ts'],
          globalSetup: ['test/e2e/check-browser.ts', 'test/support/global-setup.ts', 'test/e2e/build-web.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // In the run's shared pool of two workers, not a single fork of its own: Vitest starts a
          // single-fork project only once every other file has finished, so the browser suites
          // ran alone at the end with a core idle. Two files at a time in all, whatever project.
          pool: 'forks',
          sequence: { groupOrder: 1 },
          env: quietAws,
        },
      },
    ],
  },
});
