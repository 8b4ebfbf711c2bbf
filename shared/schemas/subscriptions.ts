import * as z from '../zod';
import { seoSchema } from './common';
import { planLimitsSchema } from './transfers';
import { PRO_PRICE_IDS } from '../transfers/pro-plan';

/**
 * The Pro plan's subscription as its subscriber sees it. Statuses are the gateway's: Pending,
 * Active, Past Due (a renewal failed: Pro is kept for the grace period while the card is
 * updated), Canceled (no more charges: Pro is kept to the end of the period paid for) and
 * Expired.
 */
export const SUBSCRIPTION_STATUSES = ['Pending', 'Active', 'Past Due', 'Canceled', 'Expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const INVOICE_STATUSES = ['open', 'paying', 'paid', 'void'] as const;

/** Whole minor units (cents) and a currency: money is never a float. */
export const moneySchema = z.strictObject({ amountMinor: z.int(), currency: z.string() });

/**
 * The discount code an invoice is priced with (a shop's, or the Pro plan's), and what it takes off
 * now: for a subscription, its first charge; `appliesTo` says whether later charges get it too.
 */
export const invoiceDiscountSchema = z.strictObject({
  code: z.string(),
  saving: moneySchema,
  appliesTo: z.enum(['first', 'every']),
});

export const paymentMethodSchema = z.strictObject({
  cardType: z.string(),
  last4: z.string(),
  /** MM/YYYY */
  expirationDate: z.string(),
});

export const priceSchema = z.strictObject({
  priceId: z.enum(PRO_PRICE_IDS),
  interval: z.enum(['month', 'year']),
  billingFrequencyMonths: z.int(),
  price: moneySchema,
  /** What it comes to a month, for comparing the two. */
  perMonth: moneySchema,
});
export type PriceView = z.infer<typeof priceSchema>;

export const productStockSchema = z.strictObject({
  product: z.strictObject({ productId: z.string(), name: z.string(), description: z.string() }),
  prices: z.array(priceSchema),
  /** What each plan allows, side by side. */
  limits: z.strictObject({ free: planLimitsSchema, pro: planLimitsSchema }),
});
export type ProductStock = z.infer<typeof productStockSchema>;

export const subscriptionSchema = z.strictObject({
  id: z.string(),
  productId: z.string(),
  priceId: z.enum(PRO_PRICE_IDS),
  interval: z.enum(['month', 'year']),
  status: z.enum(SUBSCRIPTION_STATUSES),
  price: moneySchema,
  /** What a failed renewal left owing (zero otherwise). */
  balance: moneySchema,
  /** The last day paid for (YYYY-MM-DD). */
  paidThroughDate: z.nullable(z.string()),
  /** When the next charge is due (YYYY-MM-DD); null once canceled. */
  nextBillingDate: z.nullable(z.string()),
  pastDueSince: z.nullable(z.string()),
  /** While past due: when Pro stops unless a payment goes through (ISO). */
  graceEndsAt: z.nullable(z.string()),
  canceledAt: z.nullable(z.string()),
  /** Whether it gives Pro right now. */
  givesPro: z.boolean(),
  /** When Pro ends if nothing changes (ISO): the grace period's end, or a canceled one's paid period's; null while it renews. */
  proEndsAt: z.nullable(z.string()),
  /**
   * While canceled with paid time left: it can be resumed, charged nothing now, and this is the
   * day it would renew (YYYY-MM-DD, the day after the paid time). Null otherwise.
   */
  resumeRenewsOn: z.nullable(z.string()),
  paymentMethod: paymentMethodSchema,
  createdAt: z.string(),
});
export type SubscriptionView = z.infer<typeof subscriptionSchema>;

export const invoiceSchema = z.strictObject({
  id: z.string(),
  status: z.enum(INVOICE_STATUSES),
  lines: z.array(
    z.strictObject({
      productId: z.string(),
      priceId: z.string(),
      description: z.string(),
      quantity: z.int(),
      amountMinor: z.int(),
    }),
  ),
  total: moneySchema,
  /** The discount code the invoice is priced with, and what it takes off the first charge; null without one. */
  discount: z.nullable(invoiceDiscountSchema),
  /** Why the last payment attempt failed, for the page to say. */
  lastDecline: z.nullable(z.strictObject({ reason: z.string(), message: z.string(), at: z.string() })),
  subscriptionId: z.nullable(z.string()),
  paidAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type InvoiceView = z.infer<typeof invoiceSchema>;

/**
 * A refund of a charge as the person it was refunded to sees it: how much, why, when, and how
 * (a void: the charge never went through; a refund: back to the card in a few days).
 */
export const chargeRefundSchema = z.strictObject({
  amount: moneySchema,
  operation: z.enum(['refund', 'void']),
  reason: z.string(),
  refundedAt: z.string(),
});
export type ChargeRefundView = z.infer<typeof chargeRefundSchema>;

export const paymentRecordSchema = z.strictObject({
  transactionId: z.string(),
  description: z.string(),
  amount: moneySchema,
  chargedAt: z.string(),
  card: z.nullable(z.strictObject({ cardType: z.string(), last4: z.string() })),
  /** The refunds that went through, oldest first (none for most charges). */
  refunds: z.array(chargeRefundSchema),
});
export type PaymentRecordView = z.infer<typeof paymentRecordSchema>;

/** What the browser's card form needs: the gateway (Braintree's Drop-in, or the local gateway's own form) and a client token. */
export const paymentClientSchema = z.strictObject({
  environment: z.enum(['local', 'sandbox', 'production']),
  clientToken: z.string(),
});
export type PaymentClient = z.infer<typeof paymentClientSchema>;

export const priceQuerySchema = z.strictObject({
  priceId: z.enum(PRO_PRICE_IDS, { message: `Choose one of: ${PRO_PRICE_IDS.join(', ')}` }),
});

/** Letters, digits, '-' and '_', 3 to 32: what a customer can type, and compared without case. */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

export const discountCodeTextSchema = z
  .string({ message: 'Give the discount code' })
  .check(z.trim(), z.regex(DISCOUNT_CODE_PATTERN, 'A discount code is 3 to 32 letters, digits, - or _'));

/** A Pro checkout: the price, and a discount code to price it with (checked on the server, refused with the reason). */
export const checkoutQuerySchema = z.strictObject({
  priceId: priceQuerySchema.shape.priceId,
  discountCode: z.optional(discountCodeTextSchema),
});

export const invoiceParamsSchema = z.strictObject({ invoiceId: z.string().check(z.minLength(1), z.maxLength(64)) });
export const subscriptionParamsSchema = z.strictObject({
  subscriptionProductId: z.string().check(z.minLength(1), z.maxLength(64)),
});

/** A nonce is all of a card that ever reaches us. */
const nonceSchema = z
  .string({ message: 'Send the payment method nonce from the card form' })
  .check(z.minLength(1, 'Send the payment method nonce from the card form'), z.maxLength(4_096));

export const fulfillInvoiceBodySchema = z.strictObject({
  paymentMethodNonce: nonceSchema,
  /** Braintree's device data for its fraud checks, passed through as the Drop-in gives it. */
  deviceData: z.optional(z.string().check(z.maxLength(8_192))),
});
export const updatePaymentMethodBodySchema = fulfillInvoiceBodySchema;

export const activeSubscriptionSchema = z.strictObject({ subscription: z.nullable(subscriptionSchema) });
export const checkoutInvoiceSchema = z.strictObject({ invoice: invoiceSchema });
export const fulfilledInvoiceSchema = z.strictObject({ invoice: invoiceSchema, subscription: subscriptionSchema });
export const subscriptionAnswerSchema = z.strictObject({ subscription: subscriptionSchema });

export const upgradesScreenSchema = z.strictObject({
  seo: seoSchema,
  signedIn: z.boolean(),
  currentPlan: planLimitsSchema,
  stock: productStockSchema,
  subscription: z.nullable(subscriptionSchema),
});

export const checkoutScreenSchema = z.strictObject({
  seo: seoSchema,
  stock: productStockSchema,
  price: priceSchema,
  invoice: invoiceSchema,
  /** Null when the caller is on Pro already: there is nothing to pay. */
  payment: z.nullable(paymentClientSchema),
  subscription: z.nullable(subscriptionSchema),
});

export const subscriptionScreenSchema = z.strictObject({
  seo: seoSchema,
  currentPlan: planLimitsSchema,
  subscription: z.nullable(subscriptionSchema),
  /** Successful charges, newest first (the latest 24). */
  payments: z.array(paymentRecordSchema),
  stock: productStockSchema,
});

/** A Braintree webhook as it is posted: a form with the signature and the payload. */
export const braintreeWebhookBodySchema = z.strictObject({
  bt_signature: z.string().check(z.minLength(1), z.maxLength(4_096)),
  bt_payload: z.string().check(z.minLength(1), z.maxLength(200_000)),
});
export const webhookAnswerSchema = z.strictObject({ received: z.literal(true), duplicate: z.boolean() });
