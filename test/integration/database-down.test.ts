import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { routes } from '../../shared/routes';
import { type ApiClient, createApiClient, expectError, expectOk } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let dynamo: DynamoDbLocal;
let runtime: TestRuntime;
let api: ApiClient;

beforeAll(async () => {
  // A DynamoDB Local of this suite's own, so stopping it harms no other suite.
  dynamo = await startDynamoDbLocal({ jit: 'quick-start' });
  // Enough publications for a ninth board page that the runtime has not read yet.
  runtime = await startTestRuntime({ seedPublications: 300, dynamoDbEndpoint: dynamo.endpoint });
  api = createApiClient(runtime);
});

afterAll(async () => {
  await runtime?.close();
  await dynamo?.stop();
});

describe('when the database goes away', () => {
  it('answers 503 with a message, quickly, and keeps serving boards it already has', async () => {
    // Prepare
    expectOk(await api.call(routes.loadPubs));
    await dynamo.stop();

    // Act
    const started = Date.now();
    const health = await api.call(routes.health);
    const uncachedPage = await api.call(routes.loadPubs, { query: { page: 9 } });
    const cachedPage = await api.call(routes.loadPubs);
    const elapsed = Date.now() - started;

    // Assess
    expectError(health, 503);
    expect(health.headers.get('retry-after')).toBe('5');
    expect(health.body).toEqual({
      message: 'The service is busy or briefly unavailable. Please try again in a few seconds.',
      code: 'SERVICE_UNAVAILABLE',
    });
    expectError(uncachedPage, 503);
    expectOk(cachedPage);
    // Bounded retries, not a hang: well under the 29 s gateway limit.
    expect(elapsed).toBeLessThan(15_000);
  });
});
