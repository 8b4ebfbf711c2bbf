import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { readArrivedEvents, writeAggregate } from './lib/analytics-bucket';
import { addDays, aggregateDay, dayOf } from './lib/daily-aggregate';

/**
 * EventBridge-scheduled: rewrites the figures of yesterday and today (UTC, by event time) from
 * the stored events. A day's events are read from the objects that arrived that day and the
 * next, since a browser's retries arrive late; an event seen twice counts once.
 */
export const handler = async (): Promise<{ days: { date: string; events: number }[] }> => {
  const started = performance.now();
  const now = new Date();
  const today = dayOf(now.getTime());
  const yesterday = addDays(today, -1);
  const events = await readArrivedEvents([yesterday, today, addDays(today, 1)]);
  const generatedAt = now.toISOString();
  const days = [];
  for (const date of [yesterday, today]) {
    const aggregate = aggregateDay(date, events, generatedAt);
    await writeAggregate(aggregate);
    days.push({ date, events: aggregate.events });
  }
  logger.info('Analytics aggregated', { days });
  metrics.addMetric('AnalyticsAggregationDuration', MetricUnit.Milliseconds, performance.now() - started);
  publishMetrics();
  return { days };
};
