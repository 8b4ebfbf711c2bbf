/**
 * Reconciliation's words, shared by the API schemas, the report entity and the comparison
 * (functions/lib/payments/reconciliation.ts, where each is explained).
 */

/**
 * A charge the gateway took with no record of ours; a record of ours the gateway does not match;
 * a refund the gateway made with no completed refund of ours; a completed refund (or void) of
 * ours the gateway does not match; a subscription whose status differs.
 */
export const DIFFERENCE_KINDS = [
  'charge_not_recorded',
  'record_without_charge',
  'refund_not_recorded',
  'record_without_refund',
  'subscription_status_differs',
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/**
 * How the gateway fails to match a record of ours: a charge (record_without_charge) or a refund
 * (record_without_refund: also refunding another charge, parent_differs, or a void whose charge
 * is not voided, not_voided).
 */
export const RECORD_MISMATCHES = [
  'missing_at_gateway',
  'not_money_taken',
  'amount_differs',
  'currency_differs',
  'parent_differs',
  'not_voided',
] as const;
export type RecordMismatch = (typeof RECORD_MISMATCHES)[number];

/** What started a run: the daily job, or a superuser on demand. */
export const RECONCILIATION_TRIGGERS = ['schedule', 'superuser'] as const;
export type ReconciliationTrigger = (typeof RECONCILIATION_TRIGGERS)[number];

/** matched: no difference; differences: at least one; failed: the seller could not be reconciled. */
export const RECONCILIATION_OUTCOMES = ['matched', 'differences', 'failed'] as const;
export type ReconciliationOutcomeName = (typeof RECONCILIATION_OUTCOMES)[number];
