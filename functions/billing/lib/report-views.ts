import type { ReconciliationItem } from '../../lib/db/entities/reconciliation';
import type { ReconciliationReportView } from '../../../shared/schemas/billing';

/** A stored report as the API answers it. */
export function toReconciliationReportView(report: ReconciliationItem): ReconciliationReportView {
  return {
    reportId: report.reportId,
    sellerId: report.sellerId,
    trigger: report.trigger,
    ...(report.requestedBy ? { requestedBy: report.requestedBy } : {}),
    window: { from: report.windowFrom, to: report.windowTo },
    outcome: report.outcome,
    compared: {
      recordedCharges: report.recordedCharges,
      gatewayCharges: report.gatewayCharges,
      subscriptions: report.subscriptions,
      recordedRefunds: report.recordedRefunds ?? 0,
      gatewayRefunds: report.gatewayRefunds ?? 0,
    },
    differenceCount: report.differenceCount,
    differences: report.differences,
    ...(report.error ? { error: report.error } : {}),
    ranAt: report.ranAt,
    durationMs: report.durationMs,
  };
}
