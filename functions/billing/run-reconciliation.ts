import * as billingRoutes from '../../shared/routes/billing';
import { getDb } from '../lib/db/service';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { lastDayWindow, windowProblem } from '../lib/payments/reconciliation';
import { reconcilableSeller, runReconciliation } from '../lib/payments/reconciliation-run';
import { toReconciliationReportView } from './lib/report-views';

const DAY_MS = 86_400_000;

/** One seller, one window, now: the report is stored like the daily job's and answered. */
export const handler = createHandler(billingRoutes.runReconciliation, async ({ body, caller }) => {
  const db = getDb();
  const now = new Date();
  const to = body.to ?? now.toISOString();
  const window = body.from
    ? { from: body.from, to }
    : body.to
      ? { from: new Date(Date.parse(body.to) - DAY_MS).toISOString(), to }
      : lastDayWindow(now);
  const problem = windowProblem(window);
  if (problem) throw new BadRequest(problem, { window });
  const seller = await reconcilableSeller(db, body.sellerId);
  const report = await runReconciliation(db, seller, window, { trigger: 'superuser', requestedBy: caller.userId });
  return toReconciliationReportView(report);
});
