import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../local/repo-root';
import { startChecks } from './run-checks';

/**
 * `npm test`: the checks (run-checks.ts) and the suites, overlapped. The suites start as soon as
 * the web build the browser suites test is ready, while the lint and the typechecks still run:
 * one after the other, the lint ran alone for its last 15 s with a core idle, and the suites'
 * own start (DynamoDB Local, the first imports) left the other idle. The checks run at the lowest
 * priority (run-checks.ts), so the web build and then the suites come first. Arguments go to Vitest
 * (`npm test -- --project unit`). The exit code is non-zero when any check or suite failed.
 */
function runSuites(args: readonly string[]): Promise<boolean> {
  const child = spawn(join(REPO_ROOT, 'node_modules', '.bin', 'vitest'), ['run', ...args], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`FAILED: the test suites did not start: ${error.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

const checks = startChecks({ background: true });
const webBuilt = await checks.webBuilt;
const suitesPassed = webBuilt ? await runSuites(process.argv.slice(2)) : false;
const checksPassed = await checks.allPassed;
const suites = !webBuilt ? 'not run (the web build failed)' : suitesPassed ? 'passed' : 'FAILED';
process.stdout.write(`\nnpm test: checks ${checksPassed ? 'passed' : 'FAILED'}, suites ${suites}\n`);
if (!checksPassed || !suitesPassed) process.exitCode = 1;
