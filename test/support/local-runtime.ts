import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { type LocalRuntime, startLocalRuntime } from '../../infra/local/runtime';

export interface TestRuntime extends LocalRuntime {
  /** Where the runtime captures outgoing mail as .eml files. */
  mailDir: string;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The local runtime on a free port, against the run's DynamoDB Local, seeded with a small
 * version of the demo data and ranked once: the product as `npm start` serves it.
 */
export async function startTestRuntime(
  options: { seedPublications?: number; dynamoDbEndpoint?: string } = {},
): Promise<TestRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toppubs-test-'));
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir,
    dynamoDbEndpoint: options.dynamoDbEndpoint ?? inject('dynamoEndpoint'),
    tableName: `it-${randomUUID().slice(0, 8)}`,
    seedIfEmpty: true,
    seedPublications: options.seedPublications ?? 1_200,
    runJobsAtStart: true,
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
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
