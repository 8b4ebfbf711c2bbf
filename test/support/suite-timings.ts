import type { Reporter, TestModule } from 'vitest/node';

/**
 * A reporter that lists test files by the wall time they cost, slowest first, split into
 * import (collect) time and run time (hooks included: starting a runtime, seeding). The node
 * project runs one file at a time on two cores, so these add up to the run's duration.
 *
 *   npx vitest run --project integration --reporter=default --reporter=./test/support/suite-timings.ts
 */
export default class SuiteTimings implements Reporter {
  private readonly modules: TestModule[] = [];

  onTestModuleEnd(testModule: TestModule): void {
    this.modules.push(testModule);
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
  }
}
