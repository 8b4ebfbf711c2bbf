import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { enqueuePublicationDigests } from './lib/publication-digest';

/**
 * EventBridge-scheduled, weekly: sends everyone who follows publications, a page at a time, to
 * the publication-digest queue, whose consumer (send-digest-pages.ts) mails the week of what they follow to those who
 * want it (functions/ranking/lib/publication-digest.ts).
 */
export const handler = async (): Promise<{ readers: number; pages: number }> => {
  const report = await enqueuePublicationDigests(getDb());
  logger.info('Weekly digests queued', { ...report });
  metrics.addMetric('PublicationDigestPagesQueued', MetricUnit.Count, report.pages);
  publishMetrics();
  return report;
};
