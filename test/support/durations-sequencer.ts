import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where a full run's file durations are kept (suite-timings.ts writes it when asked). */
export const RECORDED_DURATIONS_FILE = 'test/support/test-durations.json';

/** A file's key in the recording and in vitest's own cache: `project:path from the root`. */
export function durationKey(root: string, projectName: string, moduleId: string): string {
  return `${projectName}:${relative(root, moduleId)}`;
}

/** Seconds by file key; empty when the recording is missing or unreadable. */
export function readRecordedDurations(root: string): Record<string, number> {
  const path = join(root, RECORDED_DURATIONS_FILE);
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** What a file not in the recording is taken to cost: about the median file's. */
const UNKNOWN_FILE_SECONDS = 1;

/**
 * Longest files first, so that two workers finish a group together instead of one running the
 * longest file alone at its end. Vitest's own sequencer orders by the durations of the last run
 * on this machine, which a fresh clone does not have: it then orders by file size, which put
 * the longest file (every-bundle, two minutes) behind forty short ones, and the last files of
 * each group ran with a core idle. The recording fills in for the cache: a full run writes it
 * (RECORD_TEST_DURATIONS=1 with the suite-timings reporter, docs/testing.md), and a local run's
 * own cache, when there is one, comes first. Files that failed last time still run first.
 */
export class DurationsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const recorded = readRecordedDurations(root);
    const estimate = (spec: TestSpecification) => {
      const key = durationKey(root, spec.project.name, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(key);
      return {
        failed: cached?.failed === true,
        seconds: cached ? cached.duration / 1000 : (recorded[key] ?? UNKNOWN_FILE_SECONDS),
      };
    };
    const estimates = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => {
      const first = estimates.get(a) as ReturnType<typeof estimate>;
      const second = estimates.get(b) as ReturnType<typeof estimate>;
      if (first.failed !== second.failed) return first.failed ? -1 : 1;
      return second.seconds - first.seconds;
    });
  }
}
