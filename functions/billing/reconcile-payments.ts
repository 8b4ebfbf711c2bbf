import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDb } from '../lib/db/service';
import { logger, metrics, publishMetrics } from '../lib/logger';
import { dailyWindow } from '../lib/payments/reconciliation';
import { reconcilableSellers, runReconciliation } from '../lib/payments/reconciliation-run';

/** Sellers reconciled at once: each waits mostly on its own gateway. */
const SELLERS_AT_ONCE = 4;

export interface ReconciliationRunSummary {
  window: { from: string; to: string };
  sellers: number;
  matched: number;
  withDifferences: number;
  failed: number;
  differences: number;
}

/**
 * EventBridge-scheduled, daily: reconciles yesterday (the last whole UTC day) for the platform
 * and every shop with a connected gateway, one stored report per seller. Each difference is
 * logged as a warning, and the totals go out as metrics (ReconciliationDifferences,
 * ReconciliationFailures), on which an alarm fires: see docs/operations.md, "A reconciliation
 * difference was reported". A seller that cannot be reconciled does not stop the others.
 */
export const handler = async (): Promise<ReconciliationRunSummary> => {
  const db = getDb();
  const window = dailyWindow(new Date());
  const sellers = await reconcilableSellers(db);
  const outcomes: string[] = [];
  let differences = 0;
  let next = 0;
  const worker = async () => {
    while (next < sellers.length) {
      const seller = sellers[next] as (typeof sellers)[number];
      next += 1;
      const report = await runReconciliation(db, seller, window, { trigger: 'schedule' });
      outcomes.push(report.outcome);
      differences += report.differenceCount;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SELLERS_AT_ONCE, sellers.length) }, worker));
  const summary: ReconciliationRunSummary = {
    window,
    sellers: sellers.length,
    matched: outcomes.filter((outcome) => outcome === 'matched').length,
    withDifferences: outcomes.filter((outcome) => outcome === 'differences').length,
    failed: outcomes.filter((outcome) => outcome === 'failed').length,
    differences,
  };
  if (summary.withDifferences > 0 || summary.failed > 0) logger.error('Reconciliation found differences', { ...summary });
  else logger.info('Reconciliation matched', { ...summary });
  metrics.addMetric('ReconciliationDifferences', MetricUnit.Count, differences);
  metrics.addMetric('ReconciliationFailures', MetricUnit.Count, summary.failed);
  publishMetrics();
  return summary;
};
