import {
  reconciliationReportListSchema,
  reconciliationReportSchema,
  reconciliationReportsQuerySchema,
  reconciliationRunBodySchema,
} from '../schemas/billing';
import { defineRoute } from './define-route';

export const runReconciliation = defineRoute({
  method: 'POST',
  path: '/api/i/billing/superuser/mod/reconciliation',
  access: 'superuser',
  handler: 'billing/run-reconciliation',
  summary:
    "Superusers: reconciles one seller ('platform' for the Pro plan, or a shop's merchant account id) now, for a window (`from`, `to`; the 24 hours up to now by default, 31 days at most): our payment records and subscriptions against what the seller's gateway reports. Answers the report, which is also stored: every charge the gateway took that we did not record, every record of ours the gateway does not match (missing, not taken, another amount or currency), every subscription whose status differs. A seller whose gateway cannot be read is a report with outcome 'failed'. 404 for a seller with no gateway, 400 for a window that ends before it starts or spans more than 31 days.",
  body: reconciliationRunBodySchema,
  response: reconciliationReportSchema,
  capabilities: { payments: true, merchantKeys: 'open' },
  // A seller's window is read page by page from its gateway: as long as API Gateway waits.
  timeoutSeconds: 28,
});

export const listReconciliationReports = defineRoute({
  method: 'GET',
  path: '/api/i/billing/superuser/v/reconciliations',
  access: 'superuser',
  handler: 'billing/list-reconciliation-reports',
  summary:
    "Superusers: the latest reconciliation reports (the daily job's and on-demand ones), newest first, `limit` of them (20 by default, 100 at most): everyone's, or one seller's with `sellerId`. Reports are kept 90 days.",
  query: reconciliationReportsQuerySchema,
  response: reconciliationReportListSchema,
});

/** The group in listing order: a new route goes at the end. */
export const allBillingRoutes = { runReconciliation, listReconciliationReports };
