import {
  DIFFERENCE_KINDS,
  RECONCILIATION_OUTCOMES,
  RECONCILIATION_TRIGGERS,
  RECORD_MISMATCHES,
} from '../payments/reconciliation';
import * as z from '../zod';

const isoInstant = z.iso.datetime({ offset: true, message: 'Must be an ISO 8601 date-time, such as 2024-05-01T00:00:00Z' });
/** 'platform' (the Pro plan) or a shop's merchant account id (mer_…). */
const sellerIdSchema = z.string().check(z.trim(), z.minLength(1, 'Name the seller'), z.maxLength(100));

/** A run for one seller: the window defaults to the 24 hours up to now (`to` defaults to now, `from` to a day before `to`). */
export const reconciliationRunBodySchema = z.strictObject({
  sellerId: sellerIdSchema,
  from: z.optional(isoInstant),
  to: z.optional(isoInstant),
});
export type ReconciliationRunBody = z.infer<typeof reconciliationRunBodySchema>;

export const RECONCILIATION_REPORTS_DEFAULT_LIMIT = 20;
export const reconciliationReportsQuerySchema = z.strictObject({
  /** One seller's reports; everyone's when left out. */
  sellerId: z.optional(sellerIdSchema),
  limit: z._default(
    z.coerce
      .number({ message: 'Must be a number' })
      .check(z.int('Must be a whole number'), z.minimum(1, 'At least 1'), z.maximum(100, 'At most 100')),
    RECONCILIATION_REPORTS_DEFAULT_LIMIT,
  ),
});

const differenceSideSchema = z.strictObject({
  /** A charge's status at the gateway, or a subscription's status. */
  status: z.optional(z.string()),
  amountMinor: z.optional(z.int()),
  currency: z.optional(z.string()),
  /** When the charge (or the refund) was made. */
  at: z.optional(z.string()),
  /** A refund's charge: the transaction it returns money of. */
  refundOf: z.optional(z.string()),
});

export const reconciliationDifferenceSchema = z.strictObject({
  kind: z.enum(DIFFERENCE_KINDS),
  /** record_without_charge and record_without_refund only. */
  mismatch: z.optional(z.enum(RECORD_MISMATCHES)),
  transactionId: z.optional(z.string()),
  subscriptionId: z.optional(z.string()),
  customerId: z.optional(z.string()),
  /** The sale's order id at the gateway: our invoice id. */
  orderId: z.optional(z.string()),
  /** A refund's key: our refund's id (a shop's: of one part), the order id its gateway refund carries. */
  refundId: z.optional(z.string()),
  /** The gateway's id of the refund (credit) transaction. */
  refundTransactionId: z.optional(z.string()),
  /** What our table says; absent when it has nothing. */
  ours: z.optional(differenceSideSchema),
  /** What the gateway says; absent when it has nothing. */
  gateway: z.optional(differenceSideSchema),
});
export type ReconciliationDifferenceView = z.infer<typeof reconciliationDifferenceSchema>;

export const reconciliationReportSchema = z.strictObject({
  reportId: z.string(),
  sellerId: z.string(),
  trigger: z.enum(RECONCILIATION_TRIGGERS),
  requestedBy: z.optional(z.string()),
  window: z.strictObject({ from: z.string(), to: z.string() }),
  outcome: z.enum(RECONCILIATION_OUTCOMES),
  /**
   * What was compared: our payment records of the window, the gateway's charges that took money,
   * subscriptions, our completed refunds and voids of the window, the gateway's refunds of the window.
   */
  compared: z.strictObject({
    recordedCharges: z.int(),
    gatewayCharges: z.int(),
    subscriptions: z.int(),
    recordedRefunds: z.int(),
    gatewayRefunds: z.int(),
  }),
  /** Every difference found; `differences` holds the first 500 of them. */
  differenceCount: z.int(),
  differences: z.array(reconciliationDifferenceSchema),
  /** Why a failed run failed. */
  error: z.optional(z.string()),
  ranAt: z.string(),
  durationMs: z.int(),
});
export type ReconciliationReportView = z.infer<typeof reconciliationReportSchema>;

export const reconciliationReportListSchema = z.strictObject({ items: z.array(reconciliationReportSchema) });
