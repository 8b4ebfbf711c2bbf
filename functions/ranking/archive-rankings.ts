import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { archiveClosedMonths, type MonthArchiveReport } from './lib/month-archive';

/**
 * EventBridge-scheduled (daily): archives the month that closed, once. Every later run of the
 * month finds it listed and stops after one Query; a month a failed run missed is archived by
 * the next run, while its rank history lasts.
 */
export const handler = async (): Promise<{ months: MonthArchiveReport[] }> => {
  const months = await archiveClosedMonths(getDb());
  for (const report of months) logger.info('Month of rankings archived', { ...report });
  metrics.addMetric('ArchivedMonths', MetricUnit.Count, months.filter((report) => report.archived).length);
  publishMetrics();
  return { months };
};
