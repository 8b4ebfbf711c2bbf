import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { runRanking } from './lib/ranking-run';

export const handler = createHandler(rankingRoutes.runRanking, async () => {
  const report = await runRanking(getDb());
  return { runId: report.runId, publications: report.publications, boards: report.boards, durationMs: report.timings.totalMs };
});
