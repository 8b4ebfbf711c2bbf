import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { deliverFanOutPage, expandFanOut, fanOutMessageSchema } from '../lib/notification-fanout';
import { messageBody } from '../lib/work-queue';

/**
 * The notification-fanout queue's consumer (shared/queues.ts): an expand message reads a stretch
 * of an event's audience and sends its pages; a page message writes, pushes and mails its
 * recipients (functions/lib/notification-fanout.ts). Messages are independent (a standard
 * queue): one that fails is named in batchItemFailures and delivered again alone, and a second
 * delivery writes nothing twice. One that cannot be read is logged and dropped, as retrying
 * cannot mend it.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const db = getDb();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  const totals = { pagesSent: 0, started: 0, refreshed: 0, skipped: 0 };
  for (const record of event.Records) {
    const parsed = fanOutMessageSchema.safeParse(messageBody(record.body));
    if (!parsed.success) {
      logger.error('Fan-out message unreadable: dropped', { messageId: record.messageId, issues: parsed.error.issues });
      continue;
    }
    const message = parsed.data;
    try {
      if (message.step === 'expand') {
        const { pages } = await expandFanOut(db, message.event, message.cursor);
        totals.pagesSent += pages;
      } else {
        const report = await deliverFanOutPage(db, message.event, message.recipientIds);
        totals.started += report.started;
        totals.refreshed += report.refreshed;
        totals.skipped += report.skipped;
      }
    } catch (error) {
      logger.error('Fan-out message failed: returned to the queue', {
        messageId: record.messageId,
        step: message.step,
        eventId: message.event.id,
        error,
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  logger.info('Fan-out batch done', { messages: event.Records.length, failed: batchItemFailures.length, ...totals });
  metrics.addMetric('FanOutNotificationsStarted', MetricUnit.Count, totals.started);
  metrics.addMetric('FanOutMessagesFailed', MetricUnit.Count, batchItemFailures.length);
  publishMetrics();
  return { batchItemFailures };
};
