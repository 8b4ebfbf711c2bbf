import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../infra/local/free-port';

const dataDir = mkdtempSync(join(tmpdir(), 'toppubs-start-'));
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start` as a user runs it, with a small seed so the suite stays quick. */
function start(port: number, until: RegExp): Promise<Started> {
  const child = spawn(TSX, ['infra/local/main.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED_PUBLICATIONS: '300' },
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

describe('npm start', () => {
  it('serves on PORT, seeds once, keeps data across restarts and leaves nothing running on SIGINT or SIGTERM', async () => {
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
    const second = await start(port, /Rankings are up to date/);
    const boardAgain = (await (await fetch(`http://localhost:${port}/api/i/toppubs/load/pubs?limit=1`)).json()) as {
      items: { slug: string }[];
    };
    second.child.kill('SIGTERM');
    const secondCode = await second.exited;
    const leftAfterSigterm = dynamoProcessesFor(dataDir);

    // Assess
    expect(health.status).toBe(200);
    expect(first.output()).toContain('Seeding 300 publications');
    expect(first.output()).toContain(`Ready: open http://localhost:${port}`);
    expect(firstCode).toBe(0);
    expect(leftAfterSigint).toEqual([]);
    expect(second.output()).not.toContain('Seeding');
    expect(boardAgain.items[0]?.slug).toBe(board.items[0]?.slug);
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
});
