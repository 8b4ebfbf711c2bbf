import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { REPO_ROOT } from '../local/repo-root';
import { CHECKS_CUE_FD_VARIABLE } from './checks-cue-reporter';
import { startChecks } from './run-checks';

/**
 * `npm test`: the checks (run-checks.ts) and the suites, overlapped. The web build the browser
 * suites test comes first, and the suites start as soon as it is ready. The lint and the
 * typechecks (some 70 CPU s, at the lowest priority) wait for the browser suites: those leave
 * about 40% of the two cores idle while pages render and load, where the unit, web and
 * integration files keep both busy. Started with the suites, the checks took what those files
 * would have used, even at the lowest priority: on a fresh clone the three phases took 166, 168
 * and 130 s in `npm test`, against 132, 138 and 131 s run alone with no checks, and the browser
 * suites took 160 s with the checks beside them. Vitest says when through a reporter
 * (checks-cue-reporter.ts) writing to a pipe; a run with no browser suites starts them at once,
 * and they start anyway when Vitest ends. Arguments go to Vitest (`npm test -- --project unit`).
 * The exit code is non-zero when any check or suite failed.
 */
const CUE_FD = 3;
/**
 * Every Node process of the run (Vitest's threads and forks, and the processes the suites start)
 * gets a young generation of up to 64 MB a semi-space instead of V8's 16 MB: the suites allocate
 * mostly short-lived objects (SDK requests and answers, DOM nodes), and with the default they
 * were scavenged so often that garbage collection took about a tenth of the workers' CPU. CPU
 * profiles of the workers: collection took 15 of the unit and web files' 160 CPU s and 14 of
 * the integration files' 152, and with it 12 of 147 and 9 of 150.
 */
const YOUNG_GENERATION = '--max-semi-space-size=64';

function runSuites(args: readonly string[], onCue: () => void): Promise<boolean> {
  const reporters = args.some((arg) => arg === '--reporter' || arg.startsWith('--reporter=')) ? [] : ['--reporter=default'];
  const cueReporter = `--reporter=${join(REPO_ROOT, 'infra', 'build', 'checks-cue-reporter.ts')}`;
  const child = spawn(join(REPO_ROOT, 'node_modules', '.bin', 'vitest'), ['run', ...args, ...reporters, cueReporter], {
    cwd: REPO_ROOT,
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: {
      ...process.env,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, YOUNG_GENERATION].filter(Boolean).join(' '),
      [CHECKS_CUE_FD_VARIABLE]: String(CUE_FD),
    },
  });
  (child.stdio[CUE_FD] as Readable).once('data', onCue).resume();
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`FAILED: the test suites did not start: ${error.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

let cueChecks = (): void => undefined;
const staticChecksMayStart = new Promise<void>((resolve) => (cueChecks = resolve));
const checks = startChecks({ background: true, staticChecksMayStart });
const webBuilt = await checks.webBuilt;
const suitesPassed = webBuilt ? await runSuites(process.argv.slice(2), cueChecks) : false;
cueChecks();
const checksPassed = await checks.allPassed;
const suites = !webBuilt ? 'not run (the web build failed)' : suitesPassed ? 'passed' : 'FAILED';
process.stdout.write(`\nnpm test: checks ${checksPassed ? 'passed' : 'FAILED'}, suites ${suites}\n`);
if (!checksPassed || !suitesPassed) process.exitCode = 1;
