import { defineConfig } from 'vitest/config';

const quietAws = {
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, so a single one here: two files at a time
    // finish the node project in about half the time, as its files mostly wait on DynamoDB Local.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/{unit,integration,infra}/**/*.test.ts'],
          // One DynamoDB Local for the run; each suite makes its own table in it.
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
          env: quietAws,
        },
      },
      'web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/check-browser.ts', 'test/support/global-setup.ts', 'test/e2e/build-web.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // In the run's shared pool of two workers, not a single fork of its own: Vitest starts a
          // single-fork project only once every other file has finished, so the browser suites
          // ran alone at the end with a core idle. Two files at a time in all, whatever project.
          pool: 'forks',
          env: quietAws,
        },
      },
    ],
  },
});
