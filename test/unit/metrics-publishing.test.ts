import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// Type-only: each test loads the module afresh, after setting the environment it reads.
import type * as LoggerModuleType from '../../functions/lib/logger';

type LoggerModule = typeof LoggerModuleType;

let disabledBefore: string | undefined;
let written: string[];

/** The functions' logger module as a Lambda function loads it: no POWERTOOLS_METRICS_DISABLED in its environment. */
async function loadAsInLambda(): Promise<LoggerModule> {
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  vi.resetModules();
  return import('../../functions/lib/logger');
}

/** Every document written to stdout that is CloudWatch's embedded metric format. */
const emfDocuments = () =>
  written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as { _aws: { CloudWatchMetrics: { Namespace: string }[] } } & Record<string, unknown>);

beforeEach(() => {
  disabledBefore = process.env.POWERTOOLS_METRICS_DISABLED;
  written = [];
  const capture = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});

afterEach(() => {
  vi.restoreAllMocks();
  if (disabledBefore === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
  else process.env.POWERTOOLS_METRICS_DISABLED = disabledBefore;
  vi.resetModules();
});

describe('metrics in a Lambda function', () => {
  it('publishes what a call counted as one EMF document, for CloudWatch to read from the log', async () => {
    // Prepare
    const { metrics, publishMetrics } = await loadAsInLambda();
    metrics.addMetric('RankedPublications', 'Count', 42);

    // Act
    publishMetrics();

    // Assess
    const documents = emfDocuments();
    expect(documents).toHaveLength(1);
    expect(documents[0]?._aws.CloudWatchMetrics[0]?.Namespace).toBe('TopPubs');
    expect(documents[0]?.RankedPublications).toBe(42);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });

  it('prints nothing, not even Powertools’ warning, for a call that counted nothing', async () => {
    // Prepare
    const { publishMetrics } = await loadAsInLambda();

    // Act
    publishMetrics();

    // Assess
    expect(written.join('')).toBe('');
  });

  it('prints nothing where POWERTOOLS_METRICS_DISABLED was set before the module loaded (the local runtime)', async () => {
    // Prepare
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    vi.resetModules();
    const { metrics, publishMetrics } = await import('../../functions/lib/logger');
    metrics.addMetric('RankedPublications', 'Count', 42);

    // Act
    publishMetrics();

    // Assess
    expect(emfDocuments()).toEqual([]);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });
});
