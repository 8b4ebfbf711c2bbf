import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { messageBody } from '../lib/work-queue';
import { digestPageMessageSchema, sendDigestPage } from './lib/publication-digest';

/**
 * The publication-digest queue's consumer (shared/queues.ts): each message is a page of readers
 * the weekly job queued, mailed the week of what they follow (sendDigestPage). Messages are
 * independent (a standard queue): one that fails is named in batchItemFailures and delivered
 * again alone, and the digest's six-day cooldown per address keeps a second delivery from
 * mailing anyone twice. One that cannot be read is logged and dropped, as retrying cannot mend it.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const db = getDb();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  const totals = { recipients: 0, sent: 0 };
  for (const record of event.Records) {
    const parsed = digestPageMessageSchema.safeParse(messageBody(record.body));
    if (!parsed.success) {
      logger.error('Digest page unreadable: dropped', { messageId: record.messageId, issues: parsed.error.issues });
      continue;
    }
    try {
      const report = await sendDigestPage(db, parsed.data.userIds);
      totals.recipients += report.recipients;
      totals.sent += report.sent;
    } catch (error) {
      logger.error('Digest page failed: returned to the queue', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  logger.info('Digest pages done', { messages: event.Records.length, failed: batchItemFailures.length, ...totals });
  metrics.addMetric('PublicationDigestsSent', MetricUnit.Count, totals.sent);
  metrics.addMetric('DigestPagesFailed', MetricUnit.Count, batchItemFailures.length);
  publishMetrics();
  return { batchItemFailures };
};
