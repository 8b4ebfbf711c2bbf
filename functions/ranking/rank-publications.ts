import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { runRanking } from './lib/ranking-run';

/** EventBridge-scheduled: recomputes every board (hourly in AWS and in the local runtime). */
export const handler = async (): Promise<{ runId: string; publications: number }> => {
  const report = await runRanking(getDb());
  logger.info('Ranking run finished', { ...report });
  metrics.addMetric('RankingRunDuration', MetricUnit.Milliseconds, report.timings.totalMs);
  metrics.addMetric('RankedPublications', MetricUnit.Count, report.publications);
  publishMetrics();
  return { runId: report.runId, publications: report.publications };
};
