import braintree from 'braintree';
import { isDependencyUnavailable } from '../errors';
import { addOnChanges, hasAddOnChanges } from './add-on-changes';
import { centsOf, formatCents, normalizeAmount } from './amounts';
import type { BraintreeCredentials } from './braintree-credentials';
import {
  type Amount,
  type GatewayAddOn,
  discountAdditions,
  GatewayCredentialsRejected,
  type GatewayListedRefund,
  type GatewayListedTransaction,
  type GatewayPlan,
  type GatewaySubscription,
  type GatewaySubscriptionStatus,
  type GatewaySubscriptionSummary,
  type GatewayTransaction,
  InvalidWebhookSignature,
  isInWindow,
  type PaymentGateway,
  PaymentGatewayUnavailable,
  type PaymentMethodSummary,
  PaymentRecordNotFound,
  refundRefusalOf,
  type ParsedWebhook,
  saleOfOrder,
  SUBSCRIPTION_STATUSES,
  SubscriptionIdTaken,
  type TransactionStatus,
  UnusableWebhook,
} from './gateway';
import {
  cardRefusalOf,
  declineOf,
  type GatewayValidationError,
  requestRefused,
  SUBSCRIPTION_ID_IN_USE_CODE,
} from './gateway-refusals';

/**
 * The port over Braintree's SDK. The SDK's results are mapped to the port's types here, and its
 * failures to the port's errors: a decline to PaymentDeclined with words for the buyer, an outage
 * to PaymentGatewayUnavailable (503, try again), our keys refused to a plain Error (a 500: the
 * deployment is wrong, and no buyer can fix that).
 */

/** Each call's limit: a payment route answers within API Gateway's 29 seconds, retry included. */
const SDK_TIMEOUT_MS = 10_000;
/** A subscription's currency before it has any transaction to tell (the merchant account's). */
const DEFAULT_CURRENCY = 'USD';

/*
 * The part of the SDK this adapter calls, typed as the SDK answers at run time. The SDK's own
 * type definitions say every result carries every field (a customer result a `transaction`, and
 * so on) and that `success` is any boolean, which hides what a failure holds; these name only
 * what is read. The real gateway is narrowed to them once, where it is made.
 */
export interface SdkTransaction {
  id: string;
  status: string;
  amount: string;
  currencyIsoCode?: string | null;
  createdAt: string | Date;
  processorResponseCode?: string | null;
  processorResponseText?: string | null;
  gatewayRejectionReason?: string | null;
  /** "sale" or "credit" (a refund). */
  type?: string | null;
  orderId?: string | null;
  subscriptionId?: string | null;
  /** A subscription charge's discounts: each amount is per unit, taken `quantity` times. */
  discounts?: { id: string; amount?: string | null; quantity?: number | null }[] | null;
  /** A refund's sale. */
  refundedTransactionId?: string | null;
}

export interface SdkVerification {
  status: string;
  processorResponseCode?: string | null;
  processorResponseText?: string | null;
  gatewayRejectionReason?: string | null;
}

export interface SdkFailure {
  success: false;
  message?: string;
  errors?: { deepErrors(): GatewayValidationError[] };
  /** The declined charge, when one was attempted. */
  transaction?: SdkTransaction | null;
  /** The failed card verification, when vaulting verified the card. */
  verification?: SdkVerification | null;
  creditCardVerification?: SdkVerification | null;
}

export type SdkResult<Success> = ({ success: true } & Success) | SdkFailure;

export interface SdkPaymentMethod {
  token: string;
  cardType?: string | null;
  last4?: string | null;
  expirationDate?: string | null;
}

export interface SdkSubscription {
  id: string;
  planId: string;
  status: string;
  price?: string | null;
  paymentMethodToken: string;
  billingPeriodStartDate?: string | Date | null;
  billingPeriodEndDate?: string | Date | null;
  paidThroughDate?: string | Date | null;
  nextBillingDate?: string | Date | null;
  currentBillingCycle?: number | null;
  failureCount?: number | null;
  balance?: string | null;
  daysPastDue?: number | null;
  addOns?: { id: string; amount?: string | null; quantity?: number | null }[] | null;
  discounts?:
    | {
        id: string;
        amount?: string | null;
        neverExpires?: boolean | null;
        numberOfBillingCycles?: number | null;
        currentBillingCycle?: number | null;
      }[]
    | null;
  transactions?: SdkTransaction[] | null;
  updatedAt: string | Date;
}

export interface SdkPlan {
  id: string;
  name?: string | null;
  price?: string | null;
  currencyIsoCode?: string | null;
  billingFrequency?: number | string | null;
  addOns?: { id: string; name?: string | null; amount?: string | null }[] | null;
}

/** A range field of the SDK's searches: times are Dates, which the SDK sends as ISO 8601. */
export interface SdkRangeNode {
  between(min: Date, max: Date): unknown;
}

/** The transaction search's fields this adapter uses (the SDK's search nodes). */
export interface SdkTransactionSearch {
  orderId(): { is(value: string): unknown };
  type(): { is(value: string): unknown };
  createdAt(): SdkRangeNode;
}

/** The subscription search's fields this adapter uses. */
export interface SdkSubscriptionSearch {
  status(): { in(values: string[]): unknown };
}

export interface BraintreeSdk {
  customer: {
    find(customerId: string): Promise<unknown>;
    create(request: braintree.CustomerCreateRequest): Promise<SdkResult<{ customer: unknown }>>;
  };
  paymentMethod: {
    create(request: braintree.PaymentMethodCreateRequest): Promise<SdkResult<{ paymentMethod: SdkPaymentMethod }>>;
  };
  transaction: {
    sale(request: braintree.TransactionRequest): Promise<SdkResult<{ transaction: SdkTransaction }>>;
    /** The SDK answers a stream of the transactions found (a Readable in object mode). */
    search(build: (search: SdkTransactionSearch) => void): AsyncIterable<SdkTransaction>;
    find(transactionId: string): Promise<SdkTransaction>;
    refund(
      transactionId: string,
      options: { amount?: string; orderId?: string },
    ): Promise<SdkResult<{ transaction: SdkTransaction }>>;
    void(transactionId: string): Promise<SdkResult<{ transaction: SdkTransaction }>>;
  };
  subscription: {
    create(request: braintree.SubscriptionCreateRequest): Promise<SdkResult<{ subscription: SdkSubscription }>>;
    find(subscriptionId: string): Promise<SdkSubscription>;
    update(
      subscriptionId: string,
      updates: braintree.SubscriptionUpdateRequest,
    ): Promise<SdkResult<{ subscription: SdkSubscription }>>;
    retryCharge(
      subscriptionId: string,
      amount?: string,
      submitForSettlement?: boolean,
    ): Promise<SdkResult<{ transaction: SdkTransaction }>>;
    cancel(subscriptionId: string): Promise<SdkResult<{ subscription: SdkSubscription }>>;
    /** The SDK answers a stream of the subscriptions found (a Readable in object mode). */
    search(build: (search: SdkSubscriptionSearch) => void): AsyncIterable<SdkSubscription>;
  };
  plan: {
    find(planId: string): Promise<{ billingFrequency?: number | string | null }>;
    /** Every plan of the merchant account (the SDK answers an array, with `plans` on it too). */
    all(): Promise<SdkPlan[]>;
  };
  clientToken: { generate(request: braintree.ClientTokenRequest): Promise<SdkResult<{ clientToken: string }>> };
  webhookNotification: {
    parse(
      signature: string,
      payload: string,
    ): Promise<{ kind: string; timestamp: string | Date; subscription?: { id?: string } | null }>;
  };
}

/** The SDK's error types that mean Braintree is down or slow: nothing was done that we know of. */
const UNAVAILABLE_TYPES = new Set([
  'gatewayTimeoutError',
  'requestTimeoutError',
  'serverError',
  'serviceUnavailableError',
  'tooManyRequestsError',
  // The SDK's own timeout, and any network failure, arrive as this one.
  'unexpectedError',
]);
/** Braintree refused our keys or our SDK: the deployment must be fixed, not the request retried. */
const CONFIGURATION_TYPES = new Set(['authenticationError', 'authorizationError', 'invalidKeysError', 'upgradeRequired']);
/** The code of a cancel of a subscription canceled already. */
const STATUS_IS_CANCELED_CODE = '81905';
/** The code of a customer created twice at once (ensureCustomer is called concurrently). */
const CUSTOMER_ID_IN_USE_CODE = '91609';

const typeOf = (error: unknown) =>
  typeof error === 'object' && error !== null
    ? ((error as { type?: unknown }).type ?? (error as { name?: unknown }).name)
    : undefined;

/** An SDK exception as the port's error; `missing` names what a notFoundError did not find. */
function portError(error: unknown, missing: string): Error {
  const type = typeOf(error);
  if (type === 'notFoundError') return new PaymentRecordNotFound(missing, { cause: error });
  if (typeof type === 'string' && UNAVAILABLE_TYPES.has(type)) return new PaymentGatewayUnavailable(error);
  if (typeof type === 'string' && CONFIGURATION_TYPES.has(type)) {
    return new Error(`Braintree refused our credentials or SDK (${type}): check the Braintree secret`, { cause: error });
  }
  if (isDependencyUnavailable(error)) return new PaymentGatewayUnavailable(error);
  return error instanceof Error ? error : new Error(String(error));
}

async function call<T>(work: () => Promise<T>, missing: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw portError(error, missing);
  }
}

const validationErrors = (failure: SdkFailure): GatewayValidationError[] => failure.errors?.deepErrors() ?? [];

/**
 * The port's error for a refused request: a declined charge or verification, a spent or invalid
 * nonce, or (anything else) our own request's fault.
 */
function refusal(failure: SdkFailure, operation: string): Error {
  const attempt = failure.transaction ?? failure.verification ?? failure.creditCardVerification;
  const declined = attempt ? declineOf(attempt, failure) : undefined;
  if (declined) return declined;
  const errors = validationErrors(failure);
  return cardRefusalOf(errors, failure) ?? requestRefused(operation, errors, failure.message);
}

/** A calendar day, as Braintree gives it ("2024-01-31"), whichever way the SDK typed it. */
function dayOf(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : new Date(value).toISOString().slice(0, 10);
}

const isoOf = (value: string | Date) => (value instanceof Date ? value : new Date(value)).toISOString();

/** A balance may be negative at Braintree (a credit the next charge uses up). */
function signedAmount(value: string | null | undefined): Amount {
  const amount = (value ?? '0').trim();
  return amount.startsWith('-') ? `-${formatCents(centsOf(amount.slice(1)))}` : normalizeAmount(amount);
}

/**
 * Braintree's transaction statuses, folded into the port's few: what matters to the product is
 * whether the money was taken, is on its way, or was not.
 */
const TRANSACTION_STATUSES: Readonly<Record<string, TransactionStatus>> = {
  authorizing: 'authorized',
  authorized: 'authorized',
  submitted_for_settlement: 'submitted_for_settlement',
  settlement_pending: 'settling',
  settling: 'settling',
  settled: 'settled',
  settlement_confirmed: 'settled',
  processor_declined: 'processor_declined',
  gateway_rejected: 'gateway_rejected',
  failed: 'failed',
  settlement_declined: 'failed',
  voided: 'voided',
  authorization_expired: 'voided',
};

export function toGatewayTransaction(transaction: SdkTransaction, fallbackCurrency = DEFAULT_CURRENCY): GatewayTransaction {
  const status = TRANSACTION_STATUSES[transaction.status];
  if (!status) throw new Error(`Braintree answered a transaction status the port does not know: ${transaction.status}`);
  const declined = status === 'processor_declined' || status === 'failed';
  const discountMinor = (transaction.discounts ?? []).reduce(
    (sum, discount) => sum + centsOf(discount.amount ?? '0') * (discount.quantity ?? 1),
    0,
  );
  return {
    id: transaction.id,
    status,
    amount: normalizeAmount(transaction.amount),
    currency: transaction.currencyIsoCode || fallbackCurrency,
    createdAt: isoOf(transaction.createdAt),
    ...(declined && transaction.processorResponseText ? { processorResponseText: transaction.processorResponseText } : {}),
    ...(discountMinor > 0 ? { discountAmount: formatCents(discountMinor) } : {}),
  };
}

/** A transaction of a listing: the port's transaction and what ties it to our records. */
export function toGatewayListedTransaction(transaction: SdkTransaction): GatewayListedTransaction {
  return {
    ...toGatewayTransaction(transaction),
    ...(transaction.orderId ? { orderId: transaction.orderId } : {}),
    ...(transaction.subscriptionId ? { subscriptionId: transaction.subscriptionId } : {}),
  };
}

/** A refund of a listing: with its sale and the order id (our refund's key) it was made with. */
export function toGatewayListedRefund(transaction: SdkTransaction): GatewayListedRefund {
  return {
    ...toGatewayTransaction(transaction),
    refundedTransactionId: transaction.refundedTransactionId ?? '',
    ...(transaction.orderId ? { orderId: transaction.orderId } : {}),
  };
}

/** A subscription of a listing: no plan lookup, as its cycle's length is not needed. */
export function toGatewaySubscriptionSummary(subscription: SdkSubscription): GatewaySubscriptionSummary {
  const status = subscription.status as GatewaySubscriptionStatus;
  if (!SUBSCRIPTION_STATUSES.includes(status)) {
    throw new Error(`Braintree answered a subscription status the port does not know: ${subscription.status}`);
  }
  return { id: subscription.id, planId: subscription.planId, status, updatedAt: isoOf(subscription.updatedAt) };
}

/**
 * Braintree's time ranges count whole minutes and take in the minute after the upper bound too
 * (its search fields guide): the range asked for starts at the window's first whole minute, and
 * what comes back is cut to the window exactly.
 */
const MINUTE_MS = 60_000;
const minuteOf = (instant: string) => new Date(Math.floor(Date.parse(instant) / MINUTE_MS) * MINUTE_MS);

export function toGatewaySubscription(subscription: SdkSubscription, billingFrequency: number): GatewaySubscription {
  const status = subscription.status as GatewaySubscriptionStatus;
  if (!SUBSCRIPTION_STATUSES.includes(status)) {
    throw new Error(`Braintree answered a subscription status the port does not know: ${subscription.status}`);
  }
  const transactions = (subscription.transactions ?? [])
    .map((transaction) => toGatewayTransaction(transaction))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const ended = status === 'Canceled' || status === 'Expired';
  const addOns: GatewayAddOn[] = (subscription.addOns ?? []).map((addOn) => ({
    id: addOn.id,
    amount: normalizeAmount(addOn.amount ?? '0'),
    quantity: addOn.quantity ?? 1,
  }));
  return {
    id: subscription.id,
    planId: subscription.planId,
    status,
    price: normalizeAmount(subscription.price ?? '0'),
    currency:
      (subscription.transactions ?? []).find((transaction) => transaction.currencyIsoCode)?.currencyIsoCode ?? DEFAULT_CURRENCY,
    paymentMethodToken: subscription.paymentMethodToken,
    billingPeriodStartDate: dayOf(subscription.billingPeriodStartDate),
    billingPeriodEndDate: dayOf(subscription.billingPeriodEndDate),
    paidThroughDate: dayOf(subscription.paidThroughDate),
    nextBillingDate: ended ? null : dayOf(subscription.nextBillingDate),
    billingFrequency,
    currentBillingCycle: subscription.currentBillingCycle ?? 0,
    failureCount: subscription.failureCount ?? 0,
    balance: signedAmount(subscription.balance),
    daysPastDue: status === 'Past Due' ? (subscription.daysPastDue ?? 0) : 0,
    addOns,
    ...(subscription.discounts?.length
      ? {
          // Those still applying to cycles to come, as the port tells them.
          discounts: subscription.discounts
            .filter(
              (discount) =>
                discount.neverExpires === true || (discount.currentBillingCycle ?? 0) < (discount.numberOfBillingCycles ?? 1),
            )
            .map((discount) => ({
              id: discount.id,
              amount: normalizeAmount(discount.amount ?? '0'),
              numberOfBillingCycles: discount.neverExpires ? null : (discount.numberOfBillingCycles ?? 1),
            })),
        }
      : {}),
    transactions,
    updatedAt: isoOf(subscription.updatedAt),
  };
}

/** A plan's months per cycle; a plan without a whole number of them is Braintree's data gone wrong. */
function monthsOf(planId: string, billingFrequency: number | string | null | undefined): number {
  const months = Number(billingFrequency);
  if (!Number.isInteger(months) || months < 1) throw new Error(`Braintree plan ${planId} has no billing frequency`);
  return months;
}

/** A verified notification as the port tells it; one without a kind or a time is of no use. */
export function parsedWebhookOf(notification: {
  kind?: unknown;
  timestamp?: unknown;
  subscription?: { id?: unknown } | null;
}): ParsedWebhook {
  const { kind, timestamp } = notification;
  if (typeof kind !== 'string' || kind === '') throw new UnusableWebhook('it has no kind');
  const sent = timestamp instanceof Date || typeof timestamp === 'string' ? new Date(timestamp) : null;
  if (!sent || Number.isNaN(sent.getTime())) throw new UnusableWebhook('it has no valid timestamp');
  const subscriptionId = notification.subscription?.id;
  return {
    kind,
    timestamp: sent.toISOString(),
    ...(typeof subscriptionId === 'string' && subscriptionId !== '' ? { subscriptionId } : {}),
  };
}

export function toGatewayPlan(plan: SdkPlan): GatewayPlan {
  return {
    id: plan.id,
    name: plan.name || plan.id,
    price: normalizeAmount(plan.price ?? '0'),
    currency: plan.currencyIsoCode || DEFAULT_CURRENCY,
    billingFrequency: monthsOf(plan.id, plan.billingFrequency),
    addOns: (plan.addOns ?? []).map((addOn) => ({
      id: addOn.id,
      name: addOn.name || addOn.id,
      amount: normalizeAmount(addOn.amount ?? '0'),
    })),
  };
}

/** SDK error types of keys Braintree does not accept for this merchant id and environment. */
const CREDENTIALS_REJECTED_TYPES = new Set(['authenticationError', 'authorizationError', 'notFoundError']);

function toPaymentMethodSummary(method: SdkPaymentMethod): PaymentMethodSummary {
  return {
    token: method.token,
    cardType: method.cardType ?? 'Unknown',
    last4: method.last4 ?? '',
    expirationDate: method.expirationDate ?? '',
  };
}

/** Braintree keeps a first and a last name; ours is one. The last word is the family name. */
function namesOf(name: string | undefined): Pick<braintree.CustomerCreateRequest, 'firstName' | 'lastName'> {
  const trimmed = name?.trim();
  if (!trimmed) return {};
  const space = trimmed.lastIndexOf(' ');
  return space < 0 ? { firstName: trimmed } : { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1) };
}

function sdkFor(credentials: BraintreeCredentials): BraintreeSdk {
  const config: braintree.KeyGatewayConfig & { timeout: number } = {
    environment: credentials.environment === 'production' ? braintree.Environment.Production : braintree.Environment.Sandbox,
    merchantId: credentials.merchantId,
    publicKey: credentials.publicKey,
    privateKey: credentials.privateKey,
    timeout: SDK_TIMEOUT_MS,
  };
  // Narrowed once to what is read (see BraintreeSdk): the SDK's declared types overstate its results.
  return new braintree.BraintreeGateway(config) as unknown as BraintreeSdk;
}

/**
 * The port over Braintree. `sdk` is the SDK's gateway object; tests give a hand-made one (no
 * network).
 */
export function createBraintreePaymentGateway(
  credentials: BraintreeCredentials,
  sdk: BraintreeSdk = sdkFor(credentials),
): PaymentGateway {
  // A plan's months per cycle, which Braintree keeps on the plan and not on its subscriptions.
  const billingFrequencies = new Map<string, Promise<number>>();
  const billingFrequencyOf = (planId: string): Promise<number> => {
    let frequency = billingFrequencies.get(planId);
    if (!frequency) {
      frequency = call(() => sdk.plan.find(planId), `Plan ${planId}`).then((plan) => monthsOf(planId, plan.billingFrequency));
      billingFrequencies.set(planId, frequency);
      frequency.catch(() => billingFrequencies.delete(planId));
    }
    return frequency;
  };
  const subscriptionOf = async (subscription: SdkSubscription) =>
    toGatewaySubscription(subscription, await billingFrequencyOf(subscription.planId));
  const findSdkSubscription = (id: string) => call(() => sdk.subscription.find(id), `Subscription ${id}`);

  return {
    environment: credentials.environment,

    async clientToken(customerId) {
      const result = await call(() => sdk.clientToken.generate({ customerId }), `Customer ${customerId}`);
      if (!result.success) throw refusal(result, 'a client token');
      return result.clientToken;
    },

    async ensureCustomer(customer) {
      try {
        await sdk.customer.find(customer.id);
        return;
      } catch (error) {
        if (typeOf(error) !== 'notFoundError') throw portError(error, `Customer ${customer.id}`);
      }
      const result = await call(
        // Braintree takes a customer without an email; an empty one would be refused as malformed.
        () =>
          sdk.customer.create({
            id: customer.id,
            ...(customer.email ? { email: customer.email } : {}),
            ...namesOf(customer.name),
          }),
        `Customer ${customer.id}`,
      );
      if (result.success) return;
      if (validationErrors(result).some((error) => error.code === CUSTOMER_ID_IN_USE_CODE)) return;
      throw refusal(result, 'a new customer');
    },

    async vaultPaymentMethod({ customerId, nonce, deviceData }) {
      const result = await call(
        () =>
          sdk.paymentMethod.create({
            customerId,
            paymentMethodNonce: nonce,
            ...(deviceData ? { deviceData } : {}),
            options: { verifyCard: true, makeDefault: true },
          }),
        `Customer ${customerId}`,
      );
      if (!result.success) throw refusal(result, 'a card');
      return toPaymentMethodSummary(result.paymentMethod);
    },

    async sale({ amount, paymentMethodToken, orderId }) {
      const result = await call(
        () => sdk.transaction.sale({ amount, paymentMethodToken, orderId, options: { submitForSettlement: true } }),
        `Payment method ${paymentMethodToken}`,
      );
      if (!result.success) throw refusal(result, 'a sale');
      return toGatewayTransaction(result.transaction);
    },

    async findSaleByOrderId(orderId) {
      const attempts: GatewayTransaction[] = [];
      try {
        const found = sdk.transaction.search((search) => {
          search.orderId().is(orderId);
          search.type().is('sale');
        });
        for await (const transaction of found) attempts.push(toGatewayTransaction(transaction));
      } catch (error) {
        throw portError(error, `Order ${orderId}`);
      }
      return saleOfOrder(attempts.sort((a, b) => b.createdAt.localeCompare(a.createdAt)));
    },

    async findTransaction(id) {
      return toGatewayTransaction(await call(() => sdk.transaction.find(id), `Transaction ${id}`));
    },

    async refundTransaction({ transactionId, amount, orderId }) {
      const result = await call(() => sdk.transaction.refund(transactionId, { amount, orderId }), `Transaction ${transactionId}`);
      if (!result.success) throw refundRefusalOf(validationErrors(result), result.message);
      return toGatewayTransaction(result.transaction);
    },

    async voidTransaction(id) {
      const result = await call(() => sdk.transaction.void(id), `Transaction ${id}`);
      if (!result.success) throw refundRefusalOf(validationErrors(result), result.message);
      return toGatewayTransaction(result.transaction);
    },

    async findRefundByOrderId(orderId) {
      const found: GatewayListedRefund[] = [];
      try {
        const credits = sdk.transaction.search((search) => {
          search.orderId().is(orderId);
          search.type().is('credit');
        });
        for await (const credit of credits) found.push(toGatewayListedRefund(credit));
      } catch (error) {
        throw portError(error, `Refund ${orderId}`);
      }
      return found.find((credit) => credit.status !== 'voided') ?? null;
    },

    async listTransactions(window) {
      const listed: GatewayListedTransaction[] = [];
      try {
        const found = sdk.transaction.search((search) => {
          search.createdAt().between(minuteOf(window.from), new Date(window.to));
          search.type().is('sale');
        });
        for await (const transaction of found) {
          const item = toGatewayListedTransaction(transaction);
          if (isInWindow(item.createdAt, window)) listed.push(item);
        }
      } catch (error) {
        throw portError(error, 'The merchant account');
      }
      return listed.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    async listRefunds(window) {
      const listed: GatewayListedRefund[] = [];
      try {
        const found = sdk.transaction.search((search) => {
          search.createdAt().between(minuteOf(window.from), new Date(window.to));
          search.type().is('credit');
        });
        for await (const credit of found) {
          const item = toGatewayListedRefund(credit);
          if (isInWindow(item.createdAt, window)) listed.push(item);
        }
      } catch (error) {
        throw portError(error, 'The merchant account');
      }
      return listed.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    async listSubscriptions({ statuses }) {
      if (statuses.length === 0) return [];
      const listed: GatewaySubscriptionSummary[] = [];
      try {
        const found = sdk.subscription.search((search) => {
          search.status().in([...statuses]);
        });
        for await (const subscription of found) listed.push(toGatewaySubscriptionSummary(subscription));
      } catch (error) {
        throw portError(error, 'The merchant account');
      }
      return listed;
    },

    async listPlans() {
      let sdkPlans: SdkPlan[];
      try {
        sdkPlans = await sdk.plan.all();
      } catch (error) {
        const type = typeOf(error);
        if (typeof type === 'string' && CREDENTIALS_REJECTED_TYPES.has(type)) {
          throw new GatewayCredentialsRejected({ cause: error, environment: credentials.environment });
        }
        throw portError(error, 'The merchant account');
      }
      const plans = [...sdkPlans].map(toGatewayPlan);
      // Known now: a subscription of one of them needs no plan lookup of its own.
      for (const plan of plans) {
        if (!billingFrequencies.has(plan.id)) billingFrequencies.set(plan.id, Promise.resolve(plan.billingFrequency));
      }
      return plans;
    },

    async createSubscription(request) {
      const addOns = request.addOns ?? [];
      const result = await call(
        () =>
          sdk.subscription.create({
            id: request.id,
            planId: request.planId,
            paymentMethodToken: request.paymentMethodToken,
            price: request.price,
            ...(addOns.length > 0 ? { addOns: { add: addOnChanges([], addOns).add } } : {}),
            ...(request.discounts?.length ? { discounts: { add: discountAdditions(request.discounts) } } : {}),
            // The SDK posts JSON and Braintree takes the day itself ("YYYY-MM-DD"); the SDK's type asks
            // for a Date, which would travel as an instant and could land on another day in the merchant's zone.
            ...(request.firstBillingDate ? { firstBillingDate: request.firstBillingDate as unknown as Date } : {}),
            // Only the add-ons we name, at our amounts: a plan's others would be billed too.
            options: { doNotInheritAddOnsOrDiscounts: true },
          }),
        `Plan ${request.planId}`,
      );
      if (!result.success) {
        if (validationErrors(result).some((error) => error.code === SUBSCRIPTION_ID_IN_USE_CODE)) {
          throw new SubscriptionIdTaken(request.id, { cause: result });
        }
        throw refusal(result, 'a subscription');
      }
      return subscriptionOf(result.subscription);
    },

    async findSubscription(id) {
      return subscriptionOf(await findSdkSubscription(id));
    },

    async updateSubscription(id, update) {
      const changingAddOns = (update.addOns?.length ?? 0) > 0 || (update.removeAddOns?.length ?? 0) > 0;
      const changes = changingAddOns
        ? addOnChanges((await findSdkSubscription(id)).addOns ?? [], update.addOns, update.removeAddOns)
        : undefined;
      const result = await call(
        () =>
          sdk.subscription.update(id, {
            ...(update.paymentMethodToken !== undefined ? { paymentMethodToken: update.paymentMethodToken } : {}),
            ...(update.price !== undefined ? { price: update.price } : {}),
            ...(changes && hasAddOnChanges(changes) ? { addOns: changes } : {}),
            // Said aloud rather than left to the control panel's setting; a declined prorated
            // charge reverts the update (Braintree's default) and is answered as the decline.
            ...(update.prorateCharges !== undefined
              ? {
                  options: {
                    prorateCharges: update.prorateCharges,
                    ...(update.prorateCharges ? { revertSubscriptionOnProrationFailure: true } : {}),
                  },
                }
              : {}),
          }),
        `Subscription ${id}`,
      );
      if (!result.success) throw refusal(result, `an update of subscription ${id}`);
      return subscriptionOf(result.subscription);
    },

    async retrySubscriptionCharge(id) {
      const result = await call(() => sdk.subscription.retryCharge(id, undefined, true), `Subscription ${id}`);
      if (!result.success) throw refusal(result, `a retry of subscription ${id}`);
      return toGatewayTransaction(result.transaction);
    },

    async cancelSubscription(id) {
      const result = await call(() => sdk.subscription.cancel(id), `Subscription ${id}`);
      if (result.success) return subscriptionOf(result.subscription);
      // Canceled already (a retried cancel): the outcome the caller wanted.
      if (validationErrors(result).some((error) => error.code === STATUS_IS_CANCELED_CODE)) {
        return subscriptionOf(await findSdkSubscription(id));
      }
      throw refusal(result, `a cancel of subscription ${id}`);
    },

    async parseWebhook({ signature, payload }): Promise<ParsedWebhook> {
      let notification: Awaited<ReturnType<BraintreeSdk['webhookNotification']['parse']>>;
      try {
        notification = await sdk.webhookNotification.parse(signature, payload);
      } catch (error) {
        if (typeOf(error) === 'invalidSignatureError') throw new InvalidWebhookSignature(error);
        // The SDK checks the signature before it reads the payload: what fails past that is the payload.
        throw new UnusableWebhook('the SDK could not read it', { cause: error });
      }
      return parsedWebhookOf(notification);
    },
  };
}
