import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { deliverFanOutPage, expandFanOut, fanOutMessageSchema } from '../lib/notification-fanout';
import { consumeWorkMessages } from '../lib/work-queue-consumer';

/**
 * The notification-fanout queue's consumer (shared/queues.ts): an expand message reads a stretch
 * of an event's audience and sends its pages; a page message writes, pushes and mails its
 * recipients (functions/lib/notification-fanout.ts). Messages are independent (a standard
 * queue): one that fails comes back alone, and a second delivery writes nothing twice.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const db = getDb();
  const totals = { pagesSent: 0, started: 0, refreshed: 0, skipped: 0 };
  const result = await consumeWorkMessages(event, {
    what: 'Fan-out message',
    schema: fanOutMessageSchema,
    handle: async (message) => {
      if (message.step === 'expand') {
        const { pages } = await expandFanOut(db, message.event, message.cursor);
        totals.pagesSent += pages;
        return;
      }
      const report = await deliverFanOutPage(db, message.event, message.recipientIds);
      totals.started += report.started;
      totals.refreshed += report.refreshed;
      totals.skipped += report.skipped;
    },
    describe: (message) => ({ step: message.step, eventId: message.event.id }),
  });
  const failed = result.batchItemFailures.length;
  logger.info('Fan-out batch done', { messages: event.Records.length, failed, ...totals });
  metrics.addMetric('FanOutNotificationsStarted', MetricUnit.Count, totals.started);
  metrics.addMetric('FanOutMessagesFailed', MetricUnit.Count, failed);
  publishMetrics();
  return result;
};
