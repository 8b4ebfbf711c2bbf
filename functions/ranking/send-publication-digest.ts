import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { sendPublicationDigests } from './lib/publication-digest';

/** EventBridge-scheduled, weekly: mails each follower of publications the week of what they follow. */
export const handler = async (): Promise<{ recipients: number; sent: number }> => {
  const report = await sendPublicationDigests(getDb());
  logger.info('Weekly digests sent', { ...report });
  metrics.addMetric('PublicationDigestsSent', MetricUnit.Count, report.sent);
  publishMetrics();
  return report;
};
