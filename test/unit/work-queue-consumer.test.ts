import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { consumeWorkMessages } from '../../functions/lib/work-queue-consumer';
import * as z from '../../shared/zod';

const pageSchema = z.object({ userIds: z.array(z.string()) });

const batchOf = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, index) => ({ messageId: `m${index}`, body })) }) as unknown as SQSEvent;

describe("a work queue consumer's batch", () => {
  it('handles every readable message, names the one that failed, and drops the unreadable one', async () => {
    // Prepare: a good page, one that is not JSON, one of the wrong shape, and one whose handling fails
    const event = batchOf('{"userIds":["ana"]}', 'not json', '{"userIds":7}', '{"userIds":["bo"]}');
    const handled: string[][] = [];

    // Act
    const result = await consumeWorkMessages(event, {
      what: 'Test page',
      schema: pageSchema,
      handle: async ({ userIds }) => {
        if (userIds.includes('bo')) throw new Error('table out of reach');
        handled.push(userIds);
      },
    });

    // Assess: only the failed one comes back; retrying cannot mend the unreadable ones
    expect(handled).toEqual([['ana']]);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm3' }] });
  });
});
