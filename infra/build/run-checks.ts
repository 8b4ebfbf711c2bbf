import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../local/repo-root';
import { ensureWebBuilt } from '../local/web-build';

/**
 * The static checks `npm test` runs beside the suites: both typechecks and the lint, at the same
 * time (and the web build the browser suites need, below). Each is a single-threaded process, so
 * one after the other left a core idle for a minute and a half on a two-core machine. Each one's
 * output is printed whole once it ends, so the three never interleave; the exit code is non-zero
 * when any of them failed.
 *
 * The typechecks run TypeScript 7, the compiler ported to native code, from the `typescript-7`
 * alias: it checks the same programs as 5.9 in a third of the CPU. `typescript` stays 5.9 for what
 * uses its JavaScript API (typescript-eslint's parser), which 7.0 does not offer. Both packages
 * name their binary `tsc`, so which one node_modules/.bin/tsc is depends on npm: the path is explicit.
 */
const TSC_7 = 'node_modules/typescript-7/bin/tsc';

const CHECKS: readonly { name: string; command: string; args: readonly string[] }[] = [
  { name: 'typecheck (functions, infra, shared, test)', command: TSC_7, args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'typecheck (web)', command: TSC_7, args: ['-p', 'web/tsconfig.json', '--noEmit'] },
  { name: 'lint', command: 'node_modules/.bin/eslint', args: ['.'] },
];

/** The lowest priority: the suites beside them come first. */
const BACKGROUND_PRIORITY = 19;

function run(check: (typeof CHECKS)[number], background: boolean): Promise<boolean> {
  const started = Date.now();
  const child = spawn(join(REPO_ROOT, check.command), check.args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (background && child.pid !== undefined) setPriority(child.pid, BACKGROUND_PRIORITY);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const passed = code === 0;
      process.stdout.write(`${passed ? 'ok' : 'FAILED'}: ${check.name} (${seconds} s)\n${output}`);
      resolve(passed);
    });
  });
}

/**
 * The browser suites test the production web build. Built here, before the suites, rather
 * than in their global setup at the start of the suites, where it held one core for some 14 s
 * while the other waited; the setup then finds it fresh. A build that fails fails the checks.
 */
async function buildWebForTheSuites(): Promise<boolean> {
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  try {
    await ensureWebBuilt({ log: () => undefined });
    process.stdout.write(`ok: web build for the browser suites (${seconds()} s)\n`);
    return true;
  } catch (error) {
    process.stdout.write(
      `FAILED: web build for the browser suites (${seconds()} s)\n${String((error as Error).stack ?? error)}\n`,
    );
    return false;
  }
}

/** The checks under way: the web build on its own (the browser suites wait for it), and all of them. */
export interface RunningChecks {
  webBuilt: Promise<boolean>;
  allPassed: Promise<boolean>;
}

/**
 * With `background` (npm test), the typechecks and the lint run at the lowest priority, and only
 * once `staticChecksMayStart` settles: run-tests.ts holds them until the browser suites begin
 * (see there), while the web build those suites need starts at once. Without it they all start
 * together, as `npm run checks` wants.
 */
export function startChecks(options: { background?: boolean; staticChecksMayStart?: Promise<void> } = {}): RunningChecks {
  const webBuilt = buildWebForTheSuites();
  const background = options.background ?? false;
  const mayStart = options.staticChecksMayStart ?? Promise.resolve();
  const staticChecks = CHECKS.map((check) => mayStart.then(() => run(check, background)));
  const allPassed = Promise.all([...staticChecks, webBuilt]).then((results) => !results.includes(false));
  return { webBuilt, allPassed };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  if (!(await startChecks().allPassed)) process.exitCode = 1;
}
