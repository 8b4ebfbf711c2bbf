import * as billingRoutes from '../../shared/routes/billing';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toReconciliationReportView } from './lib/report-views';

/** The latest reports, newest first: one seller's (its partition) or everyone's (gsi1). */
export const handler = createHandler(billingRoutes.listReconciliationReports, async ({ query }) => {
  const reports = getDb().entities.reconciliation;
  const { data } = query.sellerId
    ? await reports.query.bySeller({ sellerId: query.sellerId }).go({ order: 'desc', limit: query.limit })
    : await reports.query.latest({ listing: 'reports' }).go({ order: 'desc', limit: query.limit });
  return { items: data.map(toReconciliationReportView) };
});
