import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let dynamo: DynamoDbLocal;
let runtime: TestRuntime;

beforeAll(async () => {
  // A DynamoDB Local of this suite's own, so stopping it harms no other suite.
  dynamo = await startDynamoDbLocal();
  runtime = await startTestRuntime({ seedPublications: 300, dynamoDbEndpoint: dynamo.endpoint });
});

afterAll(async () => {
  await runtime?.close();
  await dynamo?.stop();
});

describe('when the database goes away', () => {
  it('answers 503 with a message, quickly, and keeps serving boards it already has', async () => {
    // Prepare
    const warm = await runtime.get('/api/i/toppubs/load/pubs');
    expect(warm.status).toBe(200);
    await dynamo.stop();

    // Act
    const started = Date.now();
    const health = await runtime.get('/api/health');
    const uncachedPage = await runtime.get('/api/i/toppubs/load/pubs?page=9');
    const cachedPage = await runtime.get('/api/i/toppubs/load/pubs');
    const elapsed = Date.now() - started;

    // Assess
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('5');
    expect(await health.json()).toEqual({
      message: 'The service is busy or briefly unavailable. Please try again in a few seconds.',
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(uncachedPage.status).toBe(503);
    expect(cachedPage.status).toBe(200);
    // Bounded retries, not a hang: well under the 29 s gateway limit.
    expect(elapsed).toBeLessThan(15_000);
  });
});
