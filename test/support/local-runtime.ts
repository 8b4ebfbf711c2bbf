import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { isRecordedSuite, RouteCostsExceeded, settleSuiteUnits } from '../../infra/build/route-costs';
import { type LocalRuntime, startLocalRuntime } from '../../infra/local/runtime';

export interface TestRuntime extends LocalRuntime {
  /** Where the runtime captures outgoing mail as .eml files. */
  mailDir: string;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface TestRuntimeOptions {
  /**
   * Demo publications to seed (with their follower histories) before the suite starts. None by
   * default: seeding and ranking cost seconds that only suites reading boards need to pay.
   */
  seedPublications?: number;
  /** Run the start-up ranking job; on by default when publications are seeded. */
  rank?: boolean;
  /**
   * Archive the closed months of the seeded history once it is written, as `npm start` does. Off
   * by default: some thousand writes that only suites reading the archive need.
   */
  archive?: boolean;
  /** Reuse public answers as CloudFront would (default on). */
  edgeCache?: boolean;
  dynamoDbEndpoint?: string;
  /** A fixture server standing in for the web when publication sources are read. */
  sourceFixtureOrigin?: string;
  /** Read publication sources from the runtime's own demo fixture web (LOCAL_SOURCES=fixtures). */
  demoSourceFixtures?: boolean;
  suggestionAutoAcceptFollowers?: number;
}

/**
 * The local runtime on a free port, against the run's DynamoDB Local, in a table of its own:
 * the product as `npm start` serves it, with only the data the suite asks for.
 */
export async function startTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toppubs-test-'));
  const seedPublications = options.seedPublications ?? 0;
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir,
    dynamoDbEndpoint: options.dynamoDbEndpoint ?? inject('dynamoEndpoint'),
    tableName: `it-${randomUUID().slice(0, 8)}`,
    seedIfEmpty: seedPublications > 0,
    seedPublications,
    runJobsAtStart: options.rank ?? seedPublications > 0,
    archiveAtStart: options.archive ?? false,
    ...(options.edgeCache === undefined ? {} : { edgeCache: options.edgeCache }),
    ...(options.sourceFixtureOrigin ? { sourceFixtureOrigin: options.sourceFixtureOrigin } : {}),
    ...(options.demoSourceFixtures ? { demoSourceFixtures: true } : {}),
    ...(options.suggestionAutoAcceptFollowers === undefined
      ? {}
      : { suggestionAutoAcceptFollowers: options.suggestionAutoAcceptFollowers }),
  });
  await runtime.ready;
  return {
    ...runtime,
    mailDir: join(dataDir, 'mail'),
    // As the web app's API client does on every call: some GET routes change state (logout).
    get: (path, headers = {}) =>
      fetch(`${runtime.url}${path}`, { headers: { 'x-application-id': WEB_APPLICATION_ID, ...headers } }),
    post: (path, body, headers = {}) =>
      fetch(`${runtime.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-application-id': WEB_APPLICATION_ID, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      // What an integration suite's requests took: recorded by `npm run docs:costs`, else held to
      // the budget where no other pass holds a route (infra/build/route-costs.ts). The browser
      // suites are neither: their data are not the recording's.
      const problems = isRecordedSuite(expect.getState().testPath ?? '')
        ? settleSuiteUnits(runtime.tableName, runtime.tableUnits.byRoute())
        : [];
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (problems.length > 0) throw new RouteCostsExceeded(problems);
    },
  };
}
