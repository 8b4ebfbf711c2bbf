import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as analyticsRoutes from '../../shared/routes/analytics';
import type { StoredAnalyticsEvent } from '../../shared/schemas/analytics';
import { logger, metrics } from '../lib/logger';
import { createHandler } from '../lib/http/create-handler';
import { decodeEvents } from './lib/decode-events';
import { type EventSink, firehoseSink } from './lib/event-sink';
import { checkBodySize, limitIngestRate } from './lib/ingest-guards';
import { toStoredEvent } from './lib/stored-event';

let sink: EventSink | undefined;

/**
 * mixpanel-browser's track batches. Each event stands or falls on its own: a bad one is dropped
 * and counted, never a reason to refuse the good ones beside it (mixpanel would retry or drop
 * the whole batch). Any 200 makes mixpanel forget the batch, so it is answered only once the
 * good events are on the stream.
 */
export const handler = createHandler(analyticsRoutes.trackAnalyticsEvents, async ({ body, event }) => {
  checkBodySize(event);
  await limitIngestRate(event);
  const items = decodeEvents(body.data);
  const receivedAt = new Date().toISOString();
  const kept: StoredAnalyticsEvent[] = [];
  const reasons: Record<string, number> = {};
  for (const item of items) {
    const verdict = toStoredEvent(item, receivedAt);
    if ('kept' in verdict) kept.push(verdict.kept);
    else reasons[verdict.dropped] = (reasons[verdict.dropped] ?? 0) + 1;
  }
  if (kept.length > 0) await (sink ??= firehoseSink()).put(kept);
  const dropped = items.length - kept.length;
  if (dropped > 0) {
    logger.warn('Dropped analytics events', { dropped, reasons });
    metrics.addMetric('AnalyticsEventsDropped', MetricUnit.Count, dropped);
  }
  metrics.addMetric('AnalyticsEventsAccepted', MetricUnit.Count, kept.length);
  return { status: 1 as const, error: null, accepted: kept.length, dropped };
});
