import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as CollectSourceModule from '../../functions/ranking/lib/sources/collect-source';
import type { BatchCollection } from '../../functions/ranking/lib/sources/collect-source';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/toppubs-source-collection.fifo';
const sqs = mockClient(SQSClient);

/** The batch collection is this module's own, tested apart: here it is what a slow host gives. */
const collectSources = vi.hoisted(() => vi.fn<(...args: unknown[]) => Promise<BatchCollection>>());
vi.mock('../../functions/ranking/lib/sources/collect-source', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  collectSources,
}));

let handler: (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

beforeAll(async () => {
  // The consumer's environment, as CDK gives it; the handler reads its config once, at import.
  Object.assign(process.env, {
    STAGE: 'test',
    TABLE_NAME: 'collect-sources-test',
    ALLOWED_ORIGINS: 'https://toppubs.example',
    SOURCE_COLLECTION_QUEUE_URL: QUEUE_URL,
  });
  ({ handler } = await import('../../functions/ranking/collect-sources'));
  const { emptyBatchCollection } = await vi.importActual<typeof CollectSourceModule>(
    '../../functions/ranking/lib/sources/collect-source',
  );
  report = (overrides) => ({ ...emptyBatchCollection(), ...overrides });
});

afterEach(() => {
  sqs.reset();
  collectSources.mockReset();
});

const PLANNED_AT = '2026-11-26T02:00:00.000Z';
const record = (messageId: string, body: unknown): SQSRecord =>
  ({ messageId, body: JSON.stringify(body), attributes: { MessageGroupId: 'medium.com' } }) as unknown as SQSRecord;
const context = (remainingMs: number) => ({ getRemainingTimeInMillis: () => remainingMs }) as Context;
/** What a run reports, apart from what the test says. */
let report: (overrides: Partial<BatchCollection>) => BatchCollection;

describe('the collection queue consumer', () => {
  it("sends what a run could not reach to the back of the host's group, and keeps the message as done", async () => {
    // Prepare
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    collectSources.mockResolvedValueOnce(report({ collected: 2, notReached: ['medium:c', 'medium:d'] }));
    const batch = { host: 'medium.com', canonicalIds: ['medium:a', 'medium:b', 'medium:c', 'medium:d'], plannedAt: PLANNED_AT };

    // Act
    const answer = await handler({ Records: [record('m-1', batch)] }, context(600_000));

    // Assess
    expect(answer).toEqual({ batchItemFailures: [] });
    const sent = sqs.commandCalls(SendMessageBatchCommand)[0]?.args[0].input;
    expect(sent?.QueueUrl).toBe(QUEUE_URL);
    expect(sent?.Entries).toHaveLength(1);
    expect(sent?.Entries?.[0]).toMatchObject({ MessageGroupId: 'medium.com' });
    expect(JSON.parse(sent?.Entries?.[0]?.MessageBody ?? '{}')).toEqual({ ...batch, canonicalIds: ['medium:c', 'medium:d'] });
    // The run is told the time it has, and to skip what was read since the plan.
    const options = collectSources.mock.calls[0]?.[4] as { timeLeftMs: () => number; notAttemptedSince: Date };
    expect(options.timeLeftMs()).toBe(600_000);
    expect(options.notAttemptedSince.toISOString()).toBe(PLANNED_AT);
  });

  it('returns a batch that failed as a whole, and every later one, to the queue in order', async () => {
    // Prepare
    collectSources.mockRejectedValueOnce(new Error('The table cannot be reached'));
    const batch = (id: string) => ({ host: 'medium.com', canonicalIds: [id], plannedAt: PLANNED_AT });

    // Act
    const answer = await handler(
      { Records: [record('m-1', batch('medium:a')), record('m-2', batch('medium:b'))] },
      context(600_000),
    );

    // Assess
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-2' }] });
    expect(collectSources).toHaveBeenCalledTimes(1);
  });

  it('drops a message it cannot read (a retry would not mend it) and goes on with the next', async () => {
    // Prepare
    collectSources.mockResolvedValueOnce(report({ collected: 1 }));

    // Act
    const answer = await handler(
      {
        Records: [
          record('m-1', { host: 'medium.com', canonicalIds: [] }),
          record('m-2', { host: 'medium.com', canonicalIds: ['medium:a'], plannedAt: PLANNED_AT }),
        ],
      },
      context(600_000),
    );

    // Assess
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(collectSources).toHaveBeenCalledTimes(1);
    expect(collectSources.mock.calls[0]?.[1]).toEqual(['medium:a']);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });
});
