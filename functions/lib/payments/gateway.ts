/**
 * The payment gateway as the product uses it: the few things Braintree does for us, in our own
 * words. Two adapters implement it: Braintree itself (the `braintree` SDK, in AWS) and a local
 * gateway that behaves as Braintree's sandbox documents (`npm start` and the tests, no network).
 * Handlers and the payments core only ever see this port.
 *
 * Money is a decimal string with two places ("9.00"), as Braintree takes and answers it: never a
 * float. Dates of a billing cycle are calendar days (YYYY-MM-DD) in the gateway's time zone, as
 * Braintree gives them.
 */
import { HttpError, ServiceUnavailable } from '../errors';

/** A decimal amount with exactly two places, e.g. "9.00". */
export type Amount = string;

export const SUBSCRIPTION_STATUSES = ['Pending', 'Active', 'Past Due', 'Canceled', 'Expired'] as const;
export type GatewaySubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The webhook kinds about subscriptions that the product acts on. */
export const SUBSCRIPTION_WEBHOOK_KINDS = [
  'subscription_went_active',
  'subscription_charged_successfully',
  'subscription_charged_unsuccessfully',
  'subscription_went_past_due',
  'subscription_canceled',
  'subscription_expired',
  'subscription_trial_ended',
] as const;
export type SubscriptionWebhookKind = (typeof SUBSCRIPTION_WEBHOOK_KINDS)[number];

export type GatewayEnvironment = 'local' | 'sandbox' | 'production';

/** A vaulted card as it may be shown: never its number. */
export interface PaymentMethodSummary {
  /** The gateway's token for the vaulted card: what subscriptions and sales charge. */
  token: string;
  /** "Visa", "MasterCard", "American Express", "Discover", ... */
  cardType: string;
  last4: string;
  /** "MM/YYYY". */
  expirationDate: string;
}

export type TransactionStatus =
  | 'authorized'
  | 'submitted_for_settlement'
  | 'settling'
  | 'settled'
  | 'processor_declined'
  | 'gateway_rejected'
  | 'failed'
  | 'voided';

export interface GatewayTransaction {
  id: string;
  status: TransactionStatus;
  amount: Amount;
  currency: string;
  /** ISO 8601. */
  createdAt: string;
  /** The processor's answer for a decline ("Do Not Honor"), when there was one. */
  processorResponseText?: string;
  /**
   * What a subscription's discounts took off this charge (Braintree's transaction.discounts,
   * each amount times its quantity), when any did: a renewal's discount is known only from it.
   */
  discountAmount?: Amount;
}

/** Statuses of a sale that can be voided (whole): the money is not on its way to the merchant yet. */
export const VOIDABLE_STATUSES: ReadonlySet<TransactionStatus> = new Set(['authorized', 'submitted_for_settlement']);
/** Statuses of a sale that can be refunded (whole or in part), Braintree's rule. */
export const REFUNDABLE_STATUSES: ReadonlySet<TransactionStatus> = new Set(['settling', 'settled']);

/** Statuses of a transaction that took (or is taking) the money. */
export const MONEY_TAKEN_STATUSES: ReadonlySet<TransactionStatus> = new Set([
  'authorized',
  'submitted_for_settlement',
  'settling',
  'settled',
]);

/**
 * Of the attempts at one order's sale (newest first), the one findSaleByOrderId answers: the
 * newest that took the money, else the newest attempt; null when there is none.
 */
export function saleOfOrder(attemptsNewestFirst: readonly GatewayTransaction[]): GatewayTransaction | null {
  return attemptsNewestFirst.find((attempt) => MONEY_TAKEN_STATUSES.has(attempt.status)) ?? attemptsNewestFirst[0] ?? null;
}

/**
 * A transaction as a listing answers it (listTransactions): the port's transaction, with what
 * ties it to our records.
 */
export interface GatewayListedTransaction extends GatewayTransaction {
  /** The order id a one-time sale was made with (ours: the invoice id); none on a subscription's charges. */
  orderId?: string;
  /** The subscription whose charge it is; none on a one-time sale. */
  subscriptionId?: string;
}

/**
 * A refund (a credit) as a listing answers it (listRefunds): the port's transaction, with the
 * sale it returns money of and the order id it was made with (ours: the refund's key).
 */
export interface GatewayListedRefund extends GatewayTransaction {
  /** The sale this refund returns money of. */
  refundedTransactionId: string;
  /** The order id the refund was made with: our refund's key (refund-rules.ts, sendRefundPart). */
  orderId?: string;
}

/** A subscription as a listing answers it (listSubscriptions): who it is and where it stands. */
export interface GatewaySubscriptionSummary {
  id: string;
  planId: string;
  status: GatewaySubscriptionStatus;
  /** ISO 8601: when the gateway last changed it. */
  updatedAt: string;
}

/** A span of time, from `from` (included) to `to` (left out): ISO 8601 instants. */
export interface TimeWindow {
  from: string;
  to: string;
}

/** Whether an ISO instant falls in the window (from included, to left out). */
export function isInWindow(instant: string, window: TimeWindow): boolean {
  const at = Date.parse(instant);
  return at >= Date.parse(window.from) && at < Date.parse(window.to);
}

export interface GatewayAddOn {
  id: string;
  amount: Amount;
  quantity: number;
}

/**
 * A discount on a subscription: `amount` off each cycle it applies to, for
 * `numberOfBillingCycles` cycles from the first (null: every cycle, Braintree's neverExpires).
 */
export interface GatewayDiscount {
  id: string;
  amount: Amount;
  numberOfBillingCycles: number | null;
}

/**
 * The discount a shop's subscription discounts inherit from: Braintree takes a subscription's
 * discount only as one inherited from a discount its merchant defined in the Control Panel, so a
 * merchant who sells subscriptions with discount codes defines one with this id (any amount: ours
 * is given with each subscription).
 */
export const STORE_DISCOUNT_ID = 'penpay-discount-code';

/**
 * The same for the Pro plan's discount codes: the discount the product's own Braintree account
 * defines in its Control Panel with this id (any amount), which each Pro code's discount inherits from.
 */
export const PRO_DISCOUNT_ID = 'transfer-pro-discount-code';

/** Discounts as Braintree's create takes them: `discounts.add`, each inheriting from a Control Panel discount. */
export const discountAdditions = (discounts: readonly GatewayDiscount[] = []) =>
  discounts.map((discount) => ({
    inheritedFromId: discount.id,
    amount: discount.amount,
    ...(discount.numberOfBillingCycles === null
      ? { neverExpires: true }
      : { numberOfBillingCycles: discount.numberOfBillingCycles }),
  }));

export interface GatewaySubscription {
  id: string;
  planId: string;
  status: GatewaySubscriptionStatus;
  /** The price of one billing cycle, add-ons not included. */
  price: Amount;
  currency: string;
  paymentMethodToken: string;
  /** The first day of the current cycle; null before the first charge. */
  billingPeriodStartDate: string | null;
  billingPeriodEndDate: string | null;
  /** The last day paid for: access runs to its end. Null while nothing is paid. */
  paidThroughDate: string | null;
  /** When the next charge is due; null once the subscription is canceled or expired. */
  nextBillingDate: string | null;
  /** Months in a cycle. */
  billingFrequency: number;
  currentBillingCycle: number;
  /** Failed charges since the last successful one. */
  failureCount: number;
  /** What is owed (a past-due subscription's missed charge). */
  balance: Amount;
  /** Days past due, 0 unless Past Due. */
  daysPastDue: number;
  addOns: GatewayAddOn[];
  /** Discounts still applying to cycles to come (absent: none). */
  discounts?: GatewayDiscount[];
  /** Newest first. */
  transactions: GatewayTransaction[];
  /** ISO 8601: when the gateway last changed it. A stored copy is replaced only by a newer one. */
  updatedAt: string;
}

/** An add-on a plan offers, at the plan's amount (a subscription may name its own). */
export interface GatewayPlanAddOn {
  id: string;
  name: string;
  amount: Amount;
}

/** A plan of the merchant account, as its control panel defines it. */
export interface GatewayPlan {
  id: string;
  name: string;
  /** Per cycle; a subscription may name its own price. */
  price: Amount;
  currency: string;
  /** Months in a cycle. */
  billingFrequency: number;
  addOns: GatewayPlanAddOn[];
}

export interface ParsedWebhook {
  kind: string;
  /** ISO 8601, as the gateway stamped the notification. */
  timestamp: string;
  /** Set for subscription notifications. */
  subscriptionId?: string;
}

export interface CreateSubscriptionRequest {
  /**
   * Our id for it. Braintree refuses a second subscription with the same id, so a create retried
   * after a timeout cannot bill twice: the retry finds the first one instead.
   */
  id: string;
  planId: string;
  paymentMethodToken: string;
  /** The cycle's price from our own product data (overrides the plan's). */
  price: Amount;
  /** Add-ons the plan defines, with our amounts. */
  addOns?: readonly GatewayAddOn[];
  /** Discounts off the cycle's price (the charged amount is price and add-ons less these), inherited from STORE_DISCOUNT_ID. */
  discounts?: readonly GatewayDiscount[];
  /**
   * YYYY-MM-DD, after today: nothing is charged now; the subscription is Pending (no paid-through
   * date) until that day, when its first cycle is charged and it goes Active. How a canceled Pro
   * plan is resumed: Braintree cannot reactivate a canceled subscription.
   */
  firstBillingDate?: string;
}

export interface UpdateSubscriptionRequest {
  paymentMethodToken?: string;
  price?: Amount;
  /** Add-ons to add (or, for one already there, to replace). */
  addOns?: readonly GatewayAddOn[];
  /** Ids of add-ons to remove. */
  removeAddOns?: readonly string[];
  /**
   * Prorate the change within the current cycle, as Braintree does: when the cycle's amount
   * (price and add-ons) goes up, the difference for the days left in the cycle is charged at
   * once, and the new transaction is the first of the answer's `transactions`; a declined
   * prorated charge leaves the subscription as it was and throws PaymentDeclined. When it goes
   * down, the difference for the days left is a credit (a negative balance) that later charges
   * use up. Unset or false: the change applies from the next cycle, nothing is charged now.
   */
  prorateCharges?: boolean;
}

export interface PaymentGateway {
  readonly environment: GatewayEnvironment;
  /** A client token for the browser's card form (Drop-in, or the local gateway's form). */
  clientToken(customerId: string): Promise<string>;
  /** Creates the customer when it does not exist yet; changes nothing when it does. */
  ensureCustomer(customer: { id: string; email: string; name?: string }): Promise<void>;
  /**
   * Vaults the card behind a one-time nonce for the customer, verified with the processor.
   * Throws PaymentDeclined when the nonce is spent or invalid, or the card is declined.
   */
  vaultPaymentMethod(request: {
    customerId: string;
    nonce: string;
    /** The browser's device data from Drop-in, for Braintree's fraud checks (the local gateway ignores it). */
    deviceData?: string;
  }): Promise<PaymentMethodSummary>;
  /** A one-time charge submitted for settlement. Throws PaymentDeclined when it is declined. */
  sale(request: { amount: Amount; paymentMethodToken: string; orderId: string }): Promise<GatewayTransaction>;
  /**
   * The sale made with this order id, so a sale retried after a lost answer is found instead of
   * charged twice: the one that took the money when there is one (authorized, submitted,
   * settling or settled), else the newest attempt (declined or voided); null when there was none.
   */
  findSaleByOrderId(orderId: string): Promise<GatewayTransaction | null>;
  /**
   * The merchant account's plans with their add-ons. Also how keys are checked before they are
   * kept: keys the gateway refuses throw GatewayCredentialsRejected.
   */
  listPlans(): Promise<GatewayPlan[]>;
  /**
   * Starts a subscription; its first cycle is charged at once (or on `firstBillingDate`). Throws PaymentDeclined when that
   * charge is declined (no subscription is left behind), SubscriptionIdTaken when the id exists.
   */
  createSubscription(request: CreateSubscriptionRequest): Promise<GatewaySubscription>;
  /** Throws PaymentRecordNotFound for an unknown id. */
  findSubscription(id: string): Promise<GatewaySubscription>;
  updateSubscription(id: string, update: UpdateSubscriptionRequest): Promise<GatewaySubscription>;
  /** Charges a past-due subscription's balance now. Throws PaymentDeclined when declined. */
  retrySubscriptionCharge(id: string): Promise<GatewayTransaction>;
  /** Stops billing at once; the gateway's status becomes Canceled. */
  cancelSubscription(id: string): Promise<GatewaySubscription>;
  /**
   * Every sale created in the window, whatever its status (declined and voided ones too), oldest
   * first: what reconciliation compares with our payment records. Refunds (credits) are not listed.
   */
  listTransactions(window: TimeWindow): Promise<GatewayListedTransaction[]>;
  /**
   * Every refund (credit) created in the window, whatever its status, oldest first: what
   * reconciliation compares with our refund records. Voids are not listed: a void changes its
   * sale's status (to voided), which listTransactions and findTransaction answer.
   */
  listRefunds(window: TimeWindow): Promise<GatewayListedRefund[]>;
  /** Every subscription of the merchant account in one of these statuses, whenever it was created. */
  listSubscriptions(filter: { statuses: readonly GatewaySubscriptionStatus[] }): Promise<GatewaySubscriptionSummary[]>;
  /** A transaction by the gateway's id (its status now). Throws PaymentRecordNotFound for an unknown id. */
  findTransaction(id: string): Promise<GatewayTransaction>;
  /**
   * Refunds a settled (or settling) sale, whole or `amount` of it, as a credit carrying our
   * `orderId` (so a refund retried after a lost answer is found by findRefundByOrderId instead of
   * made twice: Braintree's refunds take no idempotency key). Throws RefundRefused when the
   * gateway says no (not settled yet, larger than what is left, refunded already).
   */
  refundTransaction(request: { transactionId: string; amount: Amount; orderId: string }): Promise<GatewayTransaction>;
  /** Voids a sale not settled yet (whole only). Throws RefundRefused when it can no longer be voided. */
  voidTransaction(id: string): Promise<GatewayTransaction>;
  /** The refund (credit) made with this order id, not voided, with the sale it is of; null when there is none. */
  findRefundByOrderId(orderId: string): Promise<GatewayListedRefund | null>;
  /** Verifies a webhook's signature and reads it. Throws InvalidWebhookSignature. */
  parseWebhook(notification: { signature: string; payload: string }): Promise<ParsedWebhook>;
}

export type DeclineReason =
  'processor_declined' | 'gateway_rejected' | 'failed' | 'consumed_nonce' | 'invalid_nonce' | 'invalid_card';

/**
 * The gateway said no to this card or this charge: the buyer can try another card. 402, as
 * card errors are answered by the payment APIs people know.
 */
export class PaymentDeclined extends HttpError {
  constructor(
    readonly reason: DeclineReason,
    message: string,
    options?: { cause?: unknown; processorResponseText?: string; details?: Record<string, unknown> },
  ) {
    super(
      402,
      'PAYMENT_DECLINED',
      message,
      {
        reason,
        ...(options?.processorResponseText ? { processorResponseText: options.processorResponseText } : {}),
        ...options?.details,
      },
      options,
    );
  }
}

/** The gateway did not answer in time, or answered that it is down: nothing was charged that we know of; try again. */
export class PaymentGatewayUnavailable extends ServiceUnavailable {
  constructor(cause?: unknown) {
    super('The payment provider is not answering right now. Nothing was charged; please try again in a minute.', { cause });
    this.details.retryAfterSeconds = PAYMENT_RETRY_AFTER_SECONDS;
  }
}
export const PAYMENT_RETRY_AFTER_SECONDS = 30;

/**
 * The gateway refused a refund or a void, in words a merchant can act on: the payment has not
 * settled yet (only a void of the whole is possible), it has settled (void no longer possible:
 * refund it), the refund is larger than what is left of it, or it was refunded already. 409:
 * nothing was refunded.
 */
export class RefundRefused extends HttpError {
  constructor(message: string, options?: { cause?: unknown; gatewayCode?: string }) {
    super(409, 'REFUND_REFUSED', message, options?.gatewayCode ? { gatewayCode: options.gatewayCode } : {}, options);
  }
}

/** Braintree's validation codes of a refused refund or void, in the merchant's words. */
const REFUND_REFUSAL_MESSAGES: Readonly<Record<string, string>> = {
  '91506': 'The payment has not settled yet: until it settles it can only be voided whole, not refunded in part.',
  '91504': 'The payment has settled and can no longer be voided: refund it instead.',
  '91521': 'The refund is larger than what is left of the payment.',
  '91512': 'The payment was refunded in full already.',
  '91505': 'A refund cannot itself be refunded.',
};

/** The port's error for a refused refund or void: the first known code's words, else the gateway's message. */
export function refundRefusalOf(
  errors: readonly { code: string; message: string }[],
  message: string | undefined,
): RefundRefused {
  const known = errors.find((error) => REFUND_REFUSAL_MESSAGES[error.code] !== undefined);
  if (known) return new RefundRefused(REFUND_REFUSAL_MESSAGES[known.code] ?? known.message, { gatewayCode: known.code });
  const words = errors.map((error) => error.message).join(' ') || message || 'no reason given';
  return new RefundRefused(`The payment gateway refused the refund: ${words}`, errors[0] ? { gatewayCode: errors[0].code } : {});
}

/**
 * The gateway refused our request itself with validation errors (a discount the Control Panel
 * does not have, a field it does not take): an answer, not a lost one, so nothing was charged or
 * changed. Not the buyer's to fix (a 500, the gateway's words go to the log); unlike an outage
 * or a timeout, whose outcome is unknown, it is a definite "no" (isDefiniteRefusal).
 */
export class GatewayRefusedRequest extends Error {
  override readonly name = 'GatewayRefusedRequest';
  constructor(
    message: string,
    readonly codes: readonly string[],
  ) {
    super(message);
  }
}

/**
 * Whether the gateway answered "no" to a charge for certain (a decline, or our request refused
 * with validation errors), so nothing was charged: what a claim made for the charge (a discount
 * code's use) may give back. A timeout or a 5xx is not: its outcome stays unknown until looked up.
 */
export const isDefiniteRefusal = (error: unknown): boolean =>
  error instanceof PaymentDeclined || error instanceof GatewayRefusedRequest;

/** A webhook whose signature does not match its payload, or was made with another key. */
export class InvalidWebhookSignature extends HttpError {
  constructor(cause?: unknown) {
    super(401, 'INVALID_SIGNATURE', 'The webhook signature does not match.', {}, { cause });
  }
}

/**
 * The gateway refused the keys (unknown, revoked, or for another environment or merchant id): a
 * merchant connecting their account can fix that, so it is a 400 in words they understand.
 * Thrown by listPlans, which is how fresh keys are verified before they are sealed.
 */
export class GatewayCredentialsRejected extends HttpError {
  constructor(options?: { cause?: unknown; environment?: GatewayEnvironment }) {
    super(
      400,
      'GATEWAY_CREDENTIALS_REJECTED',
      `The payment gateway did not accept these keys. Check the merchant id, the public key and the private key in your Braintree control panel (Settings, API), and that they are ${
        options?.environment === 'production'
          ? 'production keys, not sandbox ones'
          : options?.environment === 'sandbox'
            ? 'sandbox keys, not production ones'
            : 'for the environment you chose'
      }.`,
      {},
      { cause: options?.cause },
    );
  }
}

export class PaymentRecordNotFound extends Error {
  override readonly name = 'PaymentRecordNotFound';
  constructor(what: string, options?: { cause?: unknown }) {
    super(`${what} is not known to the payment gateway`, options);
  }
}

/**
 * A webhook whose signature holds but whose payload says nothing we can use (malformed XML, no
 * kind or time, a record the SDK cannot read). Acknowledged and logged, never a 5xx: the gateway
 * retries failed deliveries for hours, and a retry of the same payload cannot do better.
 */
export class UnusableWebhook extends Error {
  override readonly name = 'UnusableWebhook';
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`The webhook's payload cannot be used: ${reason}`, options);
  }
}

/** The gateway's subscription of this id, or null where it has none (an attempt that never reached it). */
export async function findSubscriptionIfAny(gateway: PaymentGateway, id: string): Promise<GatewaySubscription | null> {
  try {
    return await gateway.findSubscription(id);
  } catch (error) {
    if (error instanceof PaymentRecordNotFound) return null;
    throw error;
  }
}

export class SubscriptionIdTaken extends Error {
  override readonly name = 'SubscriptionIdTaken';
  constructor(id: string, options?: { cause?: unknown }) {
    super(`A subscription with id ${id} exists already`, options);
  }
}
