import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestModule, TestSpecification } from 'vitest/node';
import ChecksCueReporter, { CHECKS_CUE_FD_VARIABLE } from '../../infra/build/checks-cue-reporter';

/** What the reporter reads of a file or specification: its project's name. */
function inProject(name: string): TestSpecification & TestModule {
  return { project: { name } } as unknown as TestSpecification & TestModule;
}

describe('the reporter that tells npm test when to start the lint and typechecks', () => {
  let dir: string;
  let cueFile: string;
  let fd: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checks-cue-'));
    cueFile = join(dir, 'cue');
    fd = openSync(cueFile, 'w');
    vi.stubEnv(CHECKS_CUE_FD_VARIABLE, String(fd));
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const cues = () => readFileSync(cueFile, 'utf8').split('\n').filter(Boolean).length;

  it('cues once, when the first browser suite starts', () => {
    // Prepare
    const reporter = new ChecksCueReporter();
    reporter.onTestRunStart([inProject('unit'), inProject('integration'), inProject('e2e')]);
    reporter.onTestModuleStart(inProject('unit'));
    reporter.onTestModuleStart(inProject('integration'));
    expect(cues()).toBe(0);

    // Act
    reporter.onTestModuleStart(inProject('e2e'));
    reporter.onTestModuleStart(inProject('e2e'));

    // Assess
    expect(cues()).toBe(1);
  });

  it('cues at once when the run has no browser suite', () => {
    // Prepare
    const reporter = new ChecksCueReporter();

    // Act
    reporter.onTestRunStart([inProject('unit'), inProject('web')]);

    // Assess
    expect(cues()).toBe(1);
  });

  it('writes nothing outside npm test, where no descriptor is given', () => {
    // Prepare
    vi.stubEnv(CHECKS_CUE_FD_VARIABLE, undefined);
    const reporter = new ChecksCueReporter();

    // Act
    reporter.onTestRunStart([inProject('unit')]);
    reporter.onTestModuleStart(inProject('e2e'));

    // Assess
    expect(cues()).toBe(0);
  });
});
