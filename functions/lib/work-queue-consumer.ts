import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type * as z from '../../shared/zod';
import { logger } from './logger';
import { messageBody } from './work-queue';

/**
 * A work queue consumer's loop over one batch (shared/queues.ts): each message read with
 * `schema` and handled in turn. One that cannot be read is logged and dropped, as retrying
 * cannot mend it; one whose handling throws is logged and named in batchItemFailures, so SQS
 * delivers it again alone while the others of the batch are done.
 */
export async function consumeWorkMessages<S extends z.ZodMiniType>(
  event: SQSEvent,
  options: {
    /** What a message is, for the log: 'Fan-out message', 'Digest page'. */
    what: string;
    schema: S;
    handle: (message: z.output<S>) => Promise<void>;
    /** What to log of a message that failed, besides its id and the error. */
    describe?: (message: z.output<S>) => Record<string, unknown>;
  },
): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const parsed = options.schema.safeParse(messageBody(record.body));
    if (!parsed.success) {
      logger.error(`${options.what} unreadable: dropped`, { messageId: record.messageId, issues: parsed.error.issues });
      continue;
    }
    try {
      await options.handle(parsed.data);
    } catch (error) {
      logger.error(`${options.what} failed: returned to the queue`, {
        messageId: record.messageId,
        ...options.describe?.(parsed.data),
        error,
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
