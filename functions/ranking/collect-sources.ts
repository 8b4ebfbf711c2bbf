import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from '../../shared/zod';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { COLLECTION_MIN_INTERVAL_MS, SOURCES_PER_BATCH } from './lib/sources/collection-plan';
import { collectSources } from './lib/sources/collect-source';
import { createSourceFetch } from './lib/sources/source-fetch';
import { messageBody, sendWorkMessages } from '../lib/work-queue';

const config = getConfig();
/** Locally without the fixture web there is no internet: unreachable hosts are skipped, not failed. */
const offline = config.stage === 'local' && config.sourceFixtureOrigin === undefined;

const collectionBatch = z.object({
  host: z.string().check(z.minLength(1)),
  canonicalIds: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(SOURCES_PER_BATCH)),
  plannedAt: z.iso.datetime(),
});

/** At most two requests per snapshot, the host's robots.txt, and retries after a 429 or 5xx. */
const REQUESTS_PER_BATCH = SOURCES_PER_BATCH * 2 * 2 + 1;

/**
 * The collection queue's consumer: one message is one host's batch of sources, read one after
 * another through the polite fetcher (a fresh one per batch: its per-host turn and interval are
 * this batch's, and SQS's message groups keep two batches of a host from running at once). A
 * source attempted after the batch was planned is skipped, so a message delivered twice costs
 * the host nothing. A batch that fails as a whole (the table out of reach) is returned to the
 * queue and retried; what each source came to is recorded on it either way.
 */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const [index, record] of event.Records.entries()) {
    const parsed = collectionBatch.safeParse(messageBody(record.body));
    if (!parsed.success) {
      // Retrying cannot mend it: logged and dropped.
      logger.error('Collection batch unreadable: dropped', { messageId: record.messageId, issues: parsed.error.issues });
      continue;
    }
    const batch = parsed.data;
    try {
      const fetch = createSourceFetch(config, {
        minIntervalMs: COLLECTION_MIN_INTERVAL_MS,
        dailyBudgetPerHost: REQUESTS_PER_BATCH,
      });
      const report = await collectSources(getDb(), batch.canonicalIds, fetch, new Date(), {
        notAttemptedSince: new Date(batch.plannedAt),
        offline,
        timeLeftMs: () => context.getRemainingTimeInMillis(),
      });
      if (report.notReached.length > 0) {
        // A slow host (a long Crawl-delay) did not fit in one run: the rest go to the back of
        // its group, to be read after this one, rather than be cut off at the timeout and retried.
        await sendWorkMessages('source-collection', [
          {
            body: { ...batch, canonicalIds: report.notReached },
            groupId: batch.host,
            deduplicationKey: `${record.messageId}:rest`,
          },
        ]);
      }
      logger.info('Collection batch finished', {
        host: batch.host,
        collected: report.collected,
        failed: report.failed,
        deferred: report.deferred,
        skipped: report.skipped,
        unknown: report.unknown.length,
        sentOn: report.notReached.length,
      });
      metrics.addMetric('SourcesCollected', MetricUnit.Count, report.collected);
      metrics.addMetric('SourcesFailed', MetricUnit.Count, report.failed);
    } catch (error) {
      logger.error('Collection batch failed: returned to the queue', { host: batch.host, error });
      // A FIFO queue keeps a group's order only if everything after a failure is returned too.
      for (const later of event.Records.slice(index)) batchItemFailures.push({ itemIdentifier: later.messageId });
      break;
    }
  }
  publishMetrics();
  return { batchItemFailures };
};
