import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb, type Db } from '../../functions/lib/db/service';
import { SEED_REQUEST_TIMEOUT_MS } from '../../infra/local/runtime';

export const print = (line = '') => console.log(line);

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function heading(title: string): void {
  print();
  print(`== ${title} ${'='.repeat(Math.max(0, 72 - title.length))}`);
}

export function verdict(ok: boolean): string {
  return ok ? 'ok' : 'MISSED';
}

/**
 * Runs a command to completion and returns its stdout. Its stderr passes through for diagnosis,
 * or with `quiet` is kept and shown only if the command fails (handlers log warnings there).
 */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { quiet?: boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', options.quiet ? 'pipe' : 'inherit'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${stderr}`)),
    );
  });
}

/** Starts a long-running process and resolves once a line of its output matches `ready`. */
export function startUntil(
  command: string,
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
  // npm start's first start seeds 17,000 publications and 90 days of their ranks before it says
  // the rankings are up to date: about four and a half minutes on a two-core machine.
  timeoutMs = 480_000,
): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // Stopped (SIGKILL if SIGTERM is not enough) before the failure is reported: the caller
    // then removes the process's data folder, and a server left running would load the next run.
    const timer = setTimeout(() => {
      void stopChild(child).finally(() => reject(new Error(`${command} was not ready within ${timeoutMs / 1000} s:\n${output}`)));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const CLOCK_TICKS_PER_SECOND = 100;

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * CPU seconds used so far by the Node processes of a process tree (tsx starts the server as a
 * child; DynamoDB Local, a Java child, is left out: in AWS its work is not the function's bill).
 */
export function nodeTreeCpuSeconds(rootPid: number): number {
  let ticks = 0;
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ..." with utime and stime the 14th and 15th fields.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (comm.startsWith('node') || comm.startsWith('MainThread')) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      continue;
    }
    pending.push(...childrenOf(pid));
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** A local runtime's table, through a client whose timeout fits bulk writes, as the runtime's own seed writes it. */
export function bulkTableAccess(runtime: { dynamoDbEndpoint: string; tableName: string }): Db {
  const client = createDocumentClient({
    endpoint: runtime.dynamoDbEndpoint,
    region: 'us-east-1',
    requestTimeout: SEED_REQUEST_TIMEOUT_MS,
  });
  return createDb(client, runtime.tableName);
}
