import { writeSync } from 'node:fs';
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';

/** The environment variable naming the file descriptor run-tests.ts listens on. */
export const CHECKS_CUE_FD_VARIABLE = 'TOPPUBS_CHECKS_CUE_FD';

/** The project of the browser suites (vitest.config.ts). */
const BROWSER_PROJECT = 'e2e';

/**
 * A Vitest reporter that tells `npm test` (run-tests.ts) when to start the lint and the
 * typechecks: when the first browser suite starts, or at once when the run has none. Outside
 * `npm test` (no descriptor in the environment) it does nothing.
 */
export default class ChecksCueReporter implements Reporter {
  private cued = false;

  onTestRunStart(specifications: readonly TestSpecification[]): void {
    if (!specifications.some((specification) => specification.project.name === BROWSER_PROJECT)) this.cue();
  }

  onTestModuleStart(testModule: TestModule): void {
    if (testModule.project.name === BROWSER_PROJECT) this.cue();
  }

  private cue(): void {
    if (this.cued) return;
    this.cued = true;
    const fd = Number(process.env[CHECKS_CUE_FD_VARIABLE]);
    if (Number.isInteger(fd) && fd > 2) writeSync(fd, 'start the checks\n');
  }
}
