import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestRuntime } from '../support/local-runtime';

/**
 * The runtime as `npm start` starts it: nothing in the environment disables metrics (the test
 * projects' environment does, so it is removed before any function module is loaded).
 */
let runtime: TestRuntime;
let written: string[] = [];

beforeAll(async () => {
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  const { startTestRuntime } = await import('../support/local-runtime');
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await runtime?.close();
});

describe('the local runtime’s output', () => {
  it('prints no CloudWatch metrics documents and no empty-metrics warnings when jobs and requests run', async () => {
    // Prepare
    written = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);

    // Act: jobs that count what they did, a request, and two jobs at once sharing one metrics store.
    try {
      await runtime.runJob('rank-publications');
      await Promise.all([runtime.runJob('rank-hot-stories'), runtime.runJob('aggregate-analytics')]);
      await runtime.get('/api/health');
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }

    // Assess
    const output = written.join('');
    expect(output).not.toContain('"_aws"');
    expect(output).not.toContain('No application metrics to publish');
  });
});
