import { afterAll, beforeAll } from 'vitest';
import { type ApiClient, createApiClient } from './api-client';
import { startTestRuntime, type TestRuntime, type TestRuntimeOptions } from './local-runtime';

export interface ApiSuite {
  runtime: TestRuntime;
  api: ApiClient;
}

/**
 * A local runtime for the test file and an API client on it, started before its tests and
 * stopped after them. Read `suite.api` and `suite.runtime` inside tests and hooks (they are
 * set once the runtime is up).
 */
export function apiSuite(options: TestRuntimeOptions = {}): ApiSuite {
  const suite = {} as ApiSuite;
  beforeAll(async () => {
    suite.runtime = await startTestRuntime(options);
    suite.api = createApiClient(suite.runtime);
  });
  afterAll(async () => {
    await suite.runtime?.close();
  });
  return suite;
}
