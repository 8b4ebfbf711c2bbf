import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { logger, metrics } from '../lib/logger';
import { ingestSnapshots } from './lib/ingest';

export const handler = createHandler(rankingRoutes.ingestSnapshots, async ({ body, caller }) => {
  const result = await ingestSnapshots(getDb(), body.snapshots);
  logger.info('Ingested publication snapshots', {
    caller: caller.kind === 'app' ? caller.appId : caller.kind,
    stored: result.stored,
    rejected: result.rejected,
  });
  metrics.addMetric('SnapshotsStored', MetricUnit.Count, result.stored);
  metrics.addMetric('SnapshotsRejected', MetricUnit.Count, result.rejected);
  return result;
});
