import type { ScheduledEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { sendWorkMessages } from '../lib/work-queue';
import { planCollection } from './lib/sources/collection-plan';
import { listSourcesToPlan } from './lib/sources/collect-source';

/**
 * EventBridge-scheduled, daily: sends every source due for collection to the collection queue,
 * one message per batch of one host's sources, grouped by host so that SQS hands a host's
 * batches to the collector one after another. A retried delivery of the same run (the same
 * event id) is deduplicated by SQS; a source planned twice is collected once, because the
 * collector skips what was attempted since it was planned.
 */
export const handler = async (event: ScheduledEvent): Promise<{ due: number; batches: number; postponed: number }> => {
  const now = new Date();
  const plan = planCollection(await listSourcesToPlan(getDb()), now);
  await sendWorkMessages(
    'source-collection',
    plan.batches.map((batch) => ({
      body: { ...batch, plannedAt: now.toISOString() },
      groupId: batch.host,
      // A retried delivery of this run carries the same event id: SQS drops its copies.
      deduplicationKey: `${event.id}:${batch.host}:${batch.canonicalIds.join(',')}`,
    })),
  );
  logger.info('Source collection planned', {
    due: plan.due,
    batches: plan.batches.length,
    postponed: plan.postponed,
    hosts: plan.hosts,
  });
  metrics.addMetric('SourcesDue', MetricUnit.Count, plan.due);
  metrics.addMetric('SourcesPostponed', MetricUnit.Count, plan.postponed);
  publishMetrics();
  return { due: plan.due, batches: plan.batches.length, postponed: plan.postponed };
};
