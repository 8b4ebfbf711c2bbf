import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../infra/local/free-port';
import { isLoopbackAddress, listeningAddresses } from '../support/listening-sockets';

const dataDir = mkdtempSync(join(tmpdir(), 'toppubs-start-'));
/**
 * The arguments of package.json's start script after `node`, so this suite runs exactly what
 * `npm start` runs (without npm itself, which only passes signals on).
 */
const START_ARGUMENTS = (() => {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const [command, ...rest] = scripts.start.split(' ');
  if (command !== 'node') throw new Error(`the start script no longer runs node directly: ${scripts.start}`);
  return rest;
})();
/** Faults no request can cause, loaded into the started process (see the module). */
const INJECT_FAULTS = join(process.cwd(), 'test', 'support', 'inject-faults.mjs');

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `npm start` as a user runs it, with a small seed so the suite stays quick: 40 publications
 * and 10 demo stories (the full 300 stories cost the first start about 20 s of writes).
 */
function start(
  port: number,
  until: RegExp,
  options: { env?: Record<string, string>; injectFaults?: boolean } = {},
): Promise<Started> {
  const child = spawn(process.execPath, [...(options.injectFaults ? ['--import', INJECT_FAULTS] : []), ...START_ARGUMENTS], {
    // HOST is cleared so a value in the caller's environment cannot change what is tested.
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_PUBLICATIONS: '40',
      SEED_STORIES: '10',
      HOST: '',
      // Each start's own DynamoDB Local lives for one test: the client compiler alone starts it
      // in less CPU (infra/local/dynamodb-local.ts), through the variable every JVM reads.
      JAVA_TOOL_OPTIONS: '-XX:TieredStopAtLevel=1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      resolve({ child, output: () => output, exited });
    });
  });
}

function dynamoProcessesFor(folder: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', `DynamoDBLocal.*${folder}`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** The first answer to a GET once the port takes connections (a refused connection is tried again); it must come within 5 s. */
async function firstAnswer(port: number, path: string): Promise<{ status: number; retryAfter: string; body: string }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await new Promise((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', timeout: 5_000 }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, retryAfter: String(response.headers['retry-after']), body }),
          );
        });
        request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
        request.on('error', reject);
        request.end();
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** A GET with the path sent exactly as given (fetch would normalise it). */
function rawGet(port: number, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type'] ?? ''), body }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** DynamoDB Local's pid, as the start wrote it, and the pid of the Node process that started it. */
function dynamoAndParent(): { java: number; node: number } {
  const java = Number(readFileSync(join(dataDir, 'dynamodb', 'dynamodb-local.pid'), 'utf8'));
  // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm has no spaces for java.
  const node = Number(readFileSync(`/proc/${java}/stat`, 'utf8').split(' ')[3]);
  return { java, node };
}

/** Alive and not a zombie waiting for its parent to reap it. */
function isRunning(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

async function waitForOutput(run: Started, pattern: RegExp, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!pattern.test(run.output())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern.source} in time:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function waitUntilGone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isRunning(pid);
}

const portIn = (output: string, service: RegExp) =>
  Number(new RegExp(`${service.source} at http://[^:]+:(\\d+)`).exec(output)?.[1]);

describe('npm start', () => {
  it('serves on PORT, seeds once, keeps data across restarts and stops cleanly on SIGINT, and on SIGTERM while busy', async () => {
    // Prepare
    const port = await findFreePort();

    // Act: first start seeds and ranks.
    const first = await start(port, /Rankings are up to date/);
    const health = await fetch(`http://localhost:${port}/api/health`);
    const board = (await (await fetch(`http://localhost:${port}/api/i/toppubs/load/pubs?limit=1`)).json()) as {
      items: { slug: string }[];
    };
    first.child.kill('SIGINT');
    const firstCode = await first.exited;
    const leftAfterSigint = dynamoProcessesFor(dataDir);

    // Act: the second start finds the data and does not seed again.
    const second = await start(port, /Rankings are up to date/, { injectFaults: true });
    const boardAgain = (await (await fetch(`http://localhost:${port}/api/i/toppubs/load/pubs?limit=1`)).json()) as {
      items: { slug: string }[];
    };
    // Act: SIGTERM arrives while the event loop is held by a long synchronous step, as on a loaded
    // machine; the stop must still be the graceful one, not a kill from a wrapper process.
    const stalled = rawGet(port, '/assets/__injected_stall__.js').catch(() => undefined);
    await waitForOutput(second, /injected: stalling the event loop/, 30_000);
    second.child.kill('SIGTERM');
    await stalled;
    const secondCode = await second.exited;
    const leftAfterSigterm = dynamoProcessesFor(dataDir);

    // Assess
    expect(health.status).toBe(200);
    expect(first.output()).toContain('Seeding 40 publications');
    expect(first.output()).toMatch(/Seeded \d+ demo people, 10 stories/);
    expect(first.output()).toContain(`Ready: open http://localhost:${port}`);
    expect(firstCode).toBe(0);
    expect(leftAfterSigint).toEqual([]);
    expect(second.output()).not.toContain('Seeding');
    expect(boardAgain.items[0]?.slug).toBe(board.items[0]?.slug);
    expect(second.output()).toContain('Stopped. Nothing is left running.');
    expect(secondCode).toBe(0);
    expect(leftAfterSigterm).toEqual([]);
  }, 180_000);

  it('says which port is taken instead of failing obscurely, and stops what it started', async () => {
    // Prepare
    const port = await findFreePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, resolve));

    // Act
    const run = await start(port, /Could not start/);
    const code = await run.exited;
    blocker.close();

    // Assess
    expect(run.output()).toContain(`Could not start: Port ${port} is already in use: set PORT to another port.`);
    expect(code).toBe(1);
    expect(dynamoProcessesFor(dataDir)).toEqual([]);
  }, 60_000);
  it('answers malformed and failing requests, keeps serving, binds to loopback, and leaves no Java behind kill -9', async () => {
    // Prepare: a request as soon as the port takes connections, while the product is still starting.
    const port = await findFreePort();
    const starting = start(port, /Ready: open/, { injectFaults: true });
    const early = await firstAnswer(port, '/api/health');
    const run = await starting;
    const output = run.output();

    // Act: requests that used to take the process down, or answer wrongly
    const malformedPage = await rawGet(port, '/%E0%A4%A');
    const malformedApi = await rawGet(port, '/api/i/user/user/find/id/by/username/%E0%A4%A');
    const notAUrl = await rawGet(port, '//');
    const failing = await rawGet(port, '/assets/__injected_fault__.js');
    const afterwards = await rawGet(port, '/api/health');

    // Act: what every local service listens on
    const bound = {
      api: listeningAddresses(port),
      dynamo: listeningAddresses(portIn(output, /DynamoDB Local ready/)),
      s3: listeningAddresses(portIn(output, /S3 emulator ready/)),
      oidc: listeningAddresses(portIn(output, /Mock Google sign-in \(oauth2-mock-server\)/)),
    };

    // Act: the Node process that owns DynamoDB Local dies without running any code
    const { java, node } = dynamoAndParent();
    process.kill(node, 'SIGKILL');
    await run.exited;
    const javaGone = await waitUntilGone(java, 6_000);

    // Assess
    expect(early).toMatchObject({ status: 503, retryAfter: '5' });
    expect(JSON.parse(early.body)).toEqual({ message: expect.stringMatching(/starting/), code: 'STARTING' });
    expect(malformedPage).toMatchObject({ status: 400, type: expect.stringContaining('text/plain') });
    expect(malformedApi.status).toBe(400);
    expect(JSON.parse(malformedApi.body)).toEqual({ message: expect.any(String), code: 'BAD_REQUEST' });
    expect(notAUrl.status).toBeLessThan(500);
    expect(failing.status).toBe(500);
    expect(run.output()).toMatch(/request GET \/assets\/__injected_fault__\.js failed: Error: EIO/);
    expect(afterwards.status).toBe(200);
    for (const [service, addresses] of Object.entries(bound)) {
      expect({ service, addresses }).toEqual({ service, addresses: expect.arrayContaining([expect.any(String)]) });
      expect({ service, loopbackOnly: addresses.every(isLoopbackAddress) }).toEqual({ service, loopbackOnly: true });
    }
    expect(run.output()).toContain(`Ready: open http://localhost:${port}`);
    expect(javaGone).toBe(true);
  }, 120_000);

  it('listens on every interface with HOST=0.0.0.0, warns, and stops everything when it crashes', async () => {
    // Prepare
    const port = await findFreePort();
    const run = await start(port, /Ready: open/, { injectFaults: true, env: { HOST: '0.0.0.0' } });
    const bound = listeningAddresses(port);
    const { java, node } = dynamoAndParent();

    // Act: an exception outside any request
    process.kill(node, 'SIGUSR2');
    const code = await run.exited;
    const javaGone = await waitUntilGone(java, 6_000);

    // Assess
    expect(bound).toEqual(['0.0.0.0']);
    expect(run.output()).toMatch(/WARNING: listening on 0\.0\.0\.0.*mail outbox \(\/__local\/mail\) and the login links/);
    expect(run.output()).toContain(`Ready: open http://localhost:${port}`);
    expect(run.output()).toContain('Uncaught exception: Error: Injected exception outside any request');
    expect(code).toBe(1);
    expect(javaGone).toBe(true);
    expect(dynamoProcessesFor(dataDir)).toEqual([]);
  }, 120_000);

  it('stops everything after an unhandled promise rejection', async () => {
    // Prepare
    const port = await findFreePort();
    const run = await start(port, /Ready: open/, { injectFaults: true, env: { INJECTED_FAULT: 'rejection' } });
    const { java, node } = dynamoAndParent();

    // Act
    process.kill(node, 'SIGUSR2');
    const code = await run.exited;
    const javaGone = await waitUntilGone(java, 6_000);

    // Assess
    expect(run.output()).toContain('Unhandled promise rejection: Error: Injected rejection outside any request');
    expect(code).toBe(1);
    expect(javaGone).toBe(true);
  }, 120_000);
});
