import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { consumeWorkMessages } from '../lib/work-queue-consumer';
import { digestPageMessageSchema, sendDigestPage } from './lib/publication-digest';

/**
 * The publication-digest queue's consumer (shared/queues.ts): each message is a page of readers
 * the weekly job queued, mailed the week of what they follow (sendDigestPage). A page that fails
 * comes back alone, and the digest's six-day cooldown per address keeps a second delivery from
 * mailing anyone twice.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const db = getDb();
  const totals = { recipients: 0, sent: 0 };
  const result = await consumeWorkMessages(event, {
    what: 'Digest page',
    schema: digestPageMessageSchema,
    handle: async ({ userIds }) => {
      const report = await sendDigestPage(db, userIds);
      totals.recipients += report.recipients;
      totals.sent += report.sent;
    },
  });
  logger.info('Digest pages done', { messages: event.Records.length, failed: result.batchItemFailures.length, ...totals });
  metrics.addMetric('PublicationDigestsSent', MetricUnit.Count, totals.sent);
  metrics.addMetric('DigestPagesFailed', MetricUnit.Count, result.batchItemFailures.length);
  publishMetrics();
  return result;
};
