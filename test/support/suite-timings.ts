import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { durationKey, readRecordedDurations, RECORDED_DURATIONS_FILE } from './durations-sequencer';

/**
 * A reporter that lists test files by the wall time they cost, slowest first, split into
 * import (collect) time and run time (hooks included: starting a runtime, seeding). The node
 * project runs one file at a time on two cores, so these add up to the run's duration.
 *
 *   npx vitest run --project integration --reporter=default --reporter=./test/support/suite-timings.ts
 *
 * It also prints when each file started and ended, to see where a core was left idle. With
 * RECORD_TEST_DURATIONS=1 it writes each file's time into test/support/test-durations.json, the
 * order a fresh clone's run takes its files in (durations-sequencer.ts).
 */
export default class SuiteTimings implements Reporter {
  private readonly modules: TestModule[] = [];
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }
  private readonly startedAt = performance.now();
  /** When each file started and ended, in seconds from the start of the run. */
  private readonly spans = new Map<string, { from: number; to: number }>();

  onTestModuleStart(testModule: TestModule): void {
    this.spans.set(testModule.moduleId, { from: this.secondsSinceStart(), to: Number.NaN });
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.modules.push(testModule);
    const span = this.spans.get(testModule.moduleId);
    if (span) span.to = this.secondsSinceStart();
  }

  private secondsSinceStart(): number {
    return (performance.now() - this.startedAt) / 1000;
  }

  onTestRunEnd(): void {
    const rows = this.modules.map((testModule) => {
      const { collectDuration, prepareDuration, duration } = testModule.diagnostic();
      return {
        file: testModule.moduleId.replace(`${process.cwd()}/`, ''),
        importSeconds: (collectDuration + prepareDuration) / 1000,
        runSeconds: duration / 1000,
      };
    });
    rows.sort((a, b) => b.importSeconds + b.runSeconds - (a.importSeconds + a.runSeconds));
    const total = rows.reduce((sum, row) => sum + row.importSeconds + row.runSeconds, 0);
    const lines = rows.map(
      (row) =>
        `${(row.importSeconds + row.runSeconds).toFixed(1).padStart(7)} s  ` +
        `(import ${row.importSeconds.toFixed(1).padStart(5)} s, run ${row.runSeconds.toFixed(1).padStart(6)} s)  ${row.file}`,
    );
    process.stdout.write(`\nTime per test file, slowest first (${total.toFixed(1)} s in all):\n${lines.join('\n')}\n`);
    // The order the run took them in, for finding a core left idle at the end of a group.
    const timeline = [...this.spans]
      .sort(([, a], [, b]) => a.from - b.from)
      .map(([file, { from, to }]) => `${from.toFixed(1).padStart(7)} s -> ${to.toFixed(1).padStart(7)} s  ${file.replace(`${process.cwd()}/`, '')}`);
    process.stdout.write(`\nWhen each file ran, from the start of the run:\n${timeline.join('\n')}\n`);
    if (process.env.RECORD_TEST_DURATIONS) this.recordDurations();
  }

  /** Merged into the recording: a partial run updates its own files; files since removed are dropped. */
  private recordDurations(): void {
    const durations = readRecordedDurations(this.root);
    for (const testModule of this.modules) {
      const { collectDuration, prepareDuration, duration } = testModule.diagnostic();
      const key = durationKey(this.root, testModule.project.name, testModule.moduleId);
      durations[key] = Math.round((collectDuration + prepareDuration + duration) / 100) / 10;
    }
    const kept = Object.entries(durations)
      .filter(([key]) => existsSync(join(this.root, key.slice(key.indexOf(':') + 1))))
      .sort(([a], [b]) => a.localeCompare(b));
    writeFileSync(join(this.root, RECORDED_DURATIONS_FILE), `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
    process.stdout.write(`Recorded ${kept.length} files' durations in ${RECORDED_DURATIONS_FILE}\n`);
  }
}
