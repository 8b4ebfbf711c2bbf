/**
 * A superuser refunding Pro plan charges: finding a person's charges, and refunding one, whole or
 * in part, with a reason (functions/subscriptions/lib/pro-refunds.ts).
 */
import * as z from '../zod';
import { MAX_REFUND_REASON } from './store';
import { moneySchema, paymentRecordSchema, SUBSCRIPTION_STATUSES } from './subscriptions';

/** Whom a superuser looks for: a username or an email address, as typed. */
export const proPaymentsQuerySchema = z.strictObject({
  person: z
    .string({ message: 'Give a username or an email address' })
    .check(z.trim(), z.minLength(1, 'Give a username or an email address'), z.maxLength(254)),
});
export type ProPaymentsQuery = z.infer<typeof proPaymentsQuerySchema>;

export const proRefundSchema = z.strictObject({
  refundId: z.string(),
  number: z.int(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  operation: z.enum(['refund', 'void']),
  amount: moneySchema,
  reason: z.string(),
  subscriptionCanceled: z.boolean(),
  failure: z.nullable(z.string()),
  createdAt: z.string(),
  completedAt: z.nullable(z.string()),
});
export type ProRefundView = z.infer<typeof proRefundSchema>;

/** A Pro charge as a superuser refunds it: the person's record of it, what is refunded and left, every refund asked. */
export const proChargeSchema = z.strictObject({
  payment: paymentRecordSchema,
  subscriptionId: z.nullable(z.string()),
  refunded: moneySchema,
  left: moneySchema,
  refundsAsked: z.array(proRefundSchema),
});
export type ProChargeView = z.infer<typeof proChargeSchema>;

export const proPaymentsSchema = z.strictObject({
  person: z.strictObject({ userId: z.string(), username: z.string(), email: z.nullable(z.string()) }),
  subscription: z.nullable(
    z.strictObject({ subscriptionId: z.string(), status: z.enum(SUBSCRIPTION_STATUSES), paidThroughDate: z.nullable(z.string()) }),
  ),
  /** Newest first: the latest 24. */
  charges: z.array(proChargeSchema),
});
export type ProPaymentsView = z.infer<typeof proPaymentsSchema>;

export const proChargeParamsSchema = z.strictObject({
  transactionId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'No such charge')),
});

export const refundProChargeBodySchema = z.strictObject({
  /** Absent: all that is left of the charge. */
  amountMinor: z.optional(
    z
      .number({ message: 'The amount must be a whole number of cents' })
      .check(z.int('The amount must be a whole number of cents'), z.minimum(1, 'The amount must be at least 1 cent')),
  ),
  reason: z
    .string({ message: 'Say why the charge is refunded' })
    .check(
      z.trim(),
      z.minLength(1, 'Say why the charge is refunded'),
      z.maxLength(MAX_REFUND_REASON, `At most ${MAX_REFUND_REASON} characters`),
    ),
  /** Also cancel the subscription the charge paid for (Pro then lasts to the end of the time paid for). */
  cancelSubscription: z.optional(z.boolean()),
  /** The refunds of the charge the superuser's screen knew of: the same click sent twice is the same refund. */
  knownRefunds: z.optional(z.int().check(z.minimum(0), z.maximum(1000))),
});
export type RefundProChargeBody = z.infer<typeof refundProChargeBodySchema>;

export const refundedProChargeSchema = z.strictObject({ refund: proRefundSchema, charge: proChargeSchema });
export type RefundedProCharge = z.infer<typeof refundedProChargeSchema>;
