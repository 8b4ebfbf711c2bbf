import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { storeHotList } from './lib/feeds';

/** EventBridge-scheduled (every 10 minutes): recomputes the hot feed's order. */
export const handler = async (): Promise<{ hotStories: number }> => {
  const started = performance.now();
  const hotStories = await storeHotList(getDb(), new Date());
  logger.info('Hot stories ranked', { hotStories });
  metrics.addMetric('HotRankingDuration', MetricUnit.Milliseconds, performance.now() - started);
  publishMetrics();
  return { hotStories };
};
