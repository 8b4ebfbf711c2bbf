import { LOCAL_GATEWAY_KEYS, type LocalGatewayKeys } from '../../../shared/payments/local-gateway';
import * as z from '../../../shared/zod';
import { addOnChanges, hasAddOnChanges } from './add-on-changes';
import { normalizeAmount } from './amounts';
import { createBraintreePaymentGateway } from './braintree-gateway';
import {
  GatewayCredentialsRejected,
  type GatewayListedRefund,
  type GatewayListedTransaction,
  type GatewayPlan,
  type GatewaySubscription,
  type GatewayTransaction,
  discountAdditions,
  isInWindow,
  type PaymentGateway,
  PaymentGatewayUnavailable,
  type PaymentMethodSummary,
  PaymentRecordNotFound,
  refundRefusalOf,
  saleOfOrder,
  SUBSCRIPTION_STATUSES,
  SubscriptionIdTaken,
} from './gateway';
import {
  cardRefusalOf,
  declineOf,
  type GatewayValidationError,
  requestRefused,
  SUBSCRIPTION_ID_IN_USE_CODE,
} from './gateway-refusals';
import { localGatewayPaths } from './local-gateway-wire';

/**
 * The port over the local payment gateway of `npm start` and the tests (infra/local/
 * payment-gateway), which behaves as Braintree's sandbox documents. Its answers carry Braintree's
 * codes, so they map to the port's errors by the same rules as Braintree's; a gateway that does
 * not answer (stopped, slow, failing) is PaymentGatewayUnavailable, as Braintree down would be.
 * Webhooks are verified by Braintree's own SDK with the local merchant's keys, exactly as in AWS.
 */

/** Each call's limit, as the Braintree adapter's. */
const DEFAULT_TIMEOUT_MS = 10_000;
const CUSTOMER_ID_IN_USE_CODE = '91609';
const STATUS_IS_CANCELED_CODE = '81905';

const amount = z.string().check(z.regex(/^\d+\.\d{2}$/));
/** A balance: negative for a credit (a prorated decrease). */
const signedAmount = z.string().check(z.regex(/^-?\d+\.\d{2}$/));
const day = z.nullable(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)));
const transactionSchema = z.object({
  id: z.string(),
  status: z.enum([
    'authorized',
    'submitted_for_settlement',
    'settling',
    'settled',
    'processor_declined',
    'gateway_rejected',
    'failed',
    'voided',
  ]),
  amount,
  currency: z.string(),
  createdAt: z.string(),
  processorResponseText: z.optional(z.string()),
  discountAmount: z.optional(amount),
});
/** A transaction of a listing: with the order or the subscription it belongs to. */
const listedTransactionSchema = z.extend(transactionSchema, {
  orderId: z.optional(z.string()),
  subscriptionId: z.optional(z.string()),
});
/** A refund of a listing: with its sale and the order id it was made with. */
const listedRefundSchema = z.extend(transactionSchema, {
  refundedTransactionId: z.string(),
  orderId: z.optional(z.string()),
});
const subscriptionSchema = z.object({
  id: z.string(),
  planId: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  price: amount,
  currency: z.string(),
  paymentMethodToken: z.string(),
  billingPeriodStartDate: day,
  billingPeriodEndDate: day,
  paidThroughDate: day,
  nextBillingDate: day,
  billingFrequency: z.number(),
  currentBillingCycle: z.number(),
  failureCount: z.number(),
  balance: signedAmount,
  daysPastDue: z.number(),
  addOns: z.array(z.object({ id: z.string(), amount, quantity: z.number() })),
  discounts: z.optional(z.array(z.object({ id: z.string(), amount, numberOfBillingCycles: z.nullable(z.number()) }))),
  transactions: z.array(transactionSchema),
  updatedAt: z.string(),
});
const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: amount,
  currency: z.string(),
  billingFrequency: z.number(),
  addOns: z.array(z.object({ id: z.string(), name: z.string(), amount })),
});
const paymentMethodSchema = z.object({ token: z.string(), cardType: z.string(), last4: z.string(), expirationDate: z.string() });
const refusalSchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ code: z.string(), attribute: z.optional(z.string()), message: z.string() })),
  transaction: z.optional(
    z.object({
      status: z.string(),
      processorResponseCode: z.optional(z.string()),
      processorResponseText: z.optional(z.string()),
      gatewayRejectionReason: z.optional(z.string()),
    }),
  ),
  verification: z.optional(
    z.object({
      status: z.string(),
      processorResponseCode: z.optional(z.string()),
      processorResponseText: z.optional(z.string()),
      gatewayRejectionReason: z.optional(z.string()),
    }),
  ),
});

function toTransaction(wire: z.infer<typeof transactionSchema>): GatewayTransaction {
  const declined = wire.status === 'processor_declined' || wire.status === 'failed';
  return {
    id: wire.id,
    status: wire.status,
    amount: normalizeAmount(wire.amount),
    currency: wire.currency,
    createdAt: wire.createdAt,
    ...(declined && wire.processorResponseText ? { processorResponseText: wire.processorResponseText } : {}),
    ...(wire.discountAmount ? { discountAmount: normalizeAmount(wire.discountAmount) } : {}),
  };
}

function toListedTransaction(wire: z.infer<typeof listedTransactionSchema>): GatewayListedTransaction {
  return {
    ...toTransaction(wire),
    ...(wire.orderId !== undefined ? { orderId: wire.orderId } : {}),
    ...(wire.subscriptionId !== undefined ? { subscriptionId: wire.subscriptionId } : {}),
  };
}

function toListedRefund(wire: z.infer<typeof listedRefundSchema>): GatewayListedRefund {
  return {
    ...toTransaction(wire),
    refundedTransactionId: wire.refundedTransactionId,
    ...(wire.orderId !== undefined ? { orderId: wire.orderId } : {}),
  };
}

function toSubscription(wire: z.infer<typeof subscriptionSchema>): GatewaySubscription {
  return {
    id: wire.id,
    planId: wire.planId,
    status: wire.status,
    price: wire.price,
    currency: wire.currency,
    paymentMethodToken: wire.paymentMethodToken,
    billingPeriodStartDate: wire.billingPeriodStartDate,
    billingPeriodEndDate: wire.billingPeriodEndDate,
    paidThroughDate: wire.paidThroughDate,
    nextBillingDate: wire.nextBillingDate,
    billingFrequency: wire.billingFrequency,
    currentBillingCycle: wire.currentBillingCycle,
    failureCount: wire.failureCount,
    balance: wire.balance,
    daysPastDue: wire.daysPastDue,
    addOns: wire.addOns.map((addOn) => ({ id: addOn.id, amount: addOn.amount, quantity: addOn.quantity })),
    ...(wire.discounts?.length ? { discounts: wire.discounts.map((discount) => ({ ...discount })) } : {}),
    transactions: wire.transactions.map(toTransaction),
    updatedAt: wire.updatedAt,
  };
}

const toPaymentMethod = (wire: z.infer<typeof paymentMethodSchema>): PaymentMethodSummary => ({
  token: wire.token,
  cardType: wire.cardType,
  last4: wire.last4,
  expirationDate: wire.expirationDate,
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** The gateway answered 401 or 403: the keys are not a merchant's, or not this merchant's. */
class LocalKeysRefused extends Error {
  override readonly name = 'LocalKeysRefused';
}

const toPlan = (wire: z.infer<typeof planSchema>): GatewayPlan => ({
  id: wire.id,
  name: wire.name,
  price: wire.price,
  currency: wire.currency,
  billingFrequency: wire.billingFrequency,
  addOns: wire.addOns.map((addOn) => ({ id: addOn.id, name: addOn.name, amount: addOn.amount })),
});

/**
 * The port over the local gateway at `url` (PAYMENT_GATEWAY_URL), as the merchant `keys` name
 * (the local merchant's unless given).
 */
export function createLocalPaymentGateway(
  url: string,
  keys: LocalGatewayKeys = LOCAL_GATEWAY_KEYS,
  options: { timeoutMs?: number } = {},
): PaymentGateway {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const authorization = `Basic ${Buffer.from(`${keys.publicKey}:${keys.privateKey}`).toString('base64')}`;
  const merchant = keys.merchantId;
  let webhookVerifier: PaymentGateway | undefined;

  async function send(method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<Answer> {
    let status: number;
    let text: string;
    try {
      const response = await fetch(new URL(path, url), {
        method,
        headers: { authorization, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      // Refused, reset or timed out: the gateway is not answering, which is Braintree being down.
      throw new PaymentGatewayUnavailable(error);
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    const answer: Answer = {
      status,
      body: typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {},
    };
    const message = typeof answer.body.message === 'string' ? answer.body.message : `status ${status}`;
    if (status >= 500) throw new PaymentGatewayUnavailable(new Error(`The local payment gateway answered ${status}: ${message}`));
    if (status === 401 || status === 403) {
      throw new LocalKeysRefused(
        `The local payment gateway refused our keys (${status}): ${message}. Check PAYMENT_GATEWAY_URL and the merchant keys.`,
      );
    }
    return answer;
  }

  /** The port's error for an answer that is not a success: not found, a refusal, or our bug. */
  function failure(answer: Answer, operation: string, missing: string): Error {
    if (answer.status === 404) return new PaymentRecordNotFound(missing);
    const refusal = refusalSchema.safeParse(answer.body);
    if (answer.status !== 422 || !refusal.success) {
      return new Error(`The local payment gateway refused ${operation} (${answer.status}): ${String(answer.body.message ?? '')}`);
    }
    const body = refusal.data;
    const attempt = body.transaction ?? body.verification;
    return (
      (attempt ? declineOf(attempt, body) : undefined) ??
      cardRefusalOf(body.errors, body) ??
      requestRefused(operation, body.errors, body.message)
    );
  }

  const errorsOf = (answer: Answer): GatewayValidationError[] => {
    const parsed = refusalSchema.safeParse(answer.body);
    return parsed.success ? parsed.data.errors : [];
  };
  const hasCode = (answer: Answer, code: string) =>
    answer.status === 422 && errorsOf(answer).some((error) => error.code === code);

  const subscriptionIn = (answer: Answer) => toSubscription(subscriptionSchema.parse(answer.body.subscription));
  const transactionIn = (answer: Answer) => toTransaction(transactionSchema.parse(answer.body.transaction));

  async function findSubscription(id: string): Promise<GatewaySubscription> {
    const answer = await send('GET', localGatewayPaths.subscription(merchant, id));
    if (answer.status !== 200) throw failure(answer, `a find of subscription ${id}`, `Subscription ${id}`);
    return subscriptionIn(answer);
  }

  return {
    environment: 'local',

    async clientToken(customerId) {
      const answer = await send('POST', localGatewayPaths.clientToken(merchant), { customerId });
      if (answer.status !== 201 || typeof answer.body.clientToken !== 'string') {
        throw failure(answer, 'a client token', `Customer ${customerId}`);
      }
      return answer.body.clientToken;
    },

    async ensureCustomer(customer) {
      const found = await send('GET', localGatewayPaths.customer(merchant, customer.id));
      if (found.status === 200) return;
      if (found.status !== 404) throw failure(found, 'a customer lookup', `Customer ${customer.id}`);
      const created = await send('POST', localGatewayPaths.customers(merchant), {
        id: customer.id,
        ...(customer.email ? { email: customer.email } : {}),
        ...(customer.name ? { name: customer.name } : {}),
      });
      if (created.status === 201 || hasCode(created, CUSTOMER_ID_IN_USE_CODE)) return;
      throw failure(created, 'a new customer', `Customer ${customer.id}`);
    },

    async vaultPaymentMethod({ customerId, nonce }) {
      const answer = await send('POST', localGatewayPaths.paymentMethods(merchant), {
        customerId,
        paymentMethodNonce: nonce,
        options: { verifyCard: true, makeDefault: true },
      });
      if (answer.status !== 201) throw failure(answer, 'a card', `Customer ${customerId}`);
      return toPaymentMethod(paymentMethodSchema.parse(answer.body.paymentMethod));
    },

    async sale({ amount: saleAmount, paymentMethodToken, orderId }) {
      const answer = await send('POST', localGatewayPaths.transactions(merchant), {
        amount: saleAmount,
        paymentMethodToken,
        orderId,
        options: { submitForSettlement: true },
      });
      if (answer.status !== 201) throw failure(answer, 'a sale', `Payment method ${paymentMethodToken}`);
      return transactionIn(answer);
    },

    async findSaleByOrderId(orderId) {
      const answer = await send('POST', localGatewayPaths.transactionSearch(merchant), { orderId: { is: orderId } });
      if (answer.status !== 200) throw failure(answer, `a search for order ${orderId}`, `Order ${orderId}`);
      return saleOfOrder(z.array(transactionSchema).parse(answer.body.transactions).map(toTransaction));
    },

    async listTransactions(window) {
      const answer = await send('POST', localGatewayPaths.transactionSearch(merchant), {
        createdAt: { min: window.from, max: window.to },
      });
      if (answer.status !== 200) throw failure(answer, 'a search for transactions', `Merchant ${merchant}`);
      return z
        .array(listedTransactionSchema)
        .parse(answer.body.transactions)
        .map(toListedTransaction)
        .filter((transaction) => isInWindow(transaction.createdAt, window))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    async listRefunds(window) {
      const answer = await send('POST', localGatewayPaths.transactionSearch(merchant), {
        createdAt: { min: window.from, max: window.to },
        type: { is: 'credit' },
      });
      if (answer.status !== 200) throw failure(answer, 'a search for refunds', `Merchant ${merchant}`);
      return z
        .array(listedRefundSchema)
        .parse(answer.body.transactions)
        .map(toListedRefund)
        .filter((credit) => isInWindow(credit.createdAt, window))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    async listSubscriptions({ statuses }) {
      if (statuses.length === 0) return [];
      const answer = await send('POST', localGatewayPaths.subscriptionSearch(merchant), { status: [...statuses] });
      if (answer.status !== 200) throw failure(answer, 'a search for subscriptions', `Merchant ${merchant}`);
      return z
        .array(subscriptionSchema)
        .parse(answer.body.subscriptions)
        .map((wire) => ({ id: wire.id, planId: wire.planId, status: wire.status, updatedAt: wire.updatedAt }));
    },

    async listPlans() {
      let answer: Answer;
      try {
        answer = await send('GET', localGatewayPaths.plans(merchant));
      } catch (error) {
        if (error instanceof LocalKeysRefused) throw new GatewayCredentialsRejected({ cause: error });
        throw error;
      }
      if (answer.status !== 200) throw failure(answer, 'a list of plans', `Merchant ${merchant}`);
      return z.array(planSchema).parse(answer.body.plans).map(toPlan);
    },

    async createSubscription(request) {
      const addOns = request.addOns ?? [];
      const answer = await send('POST', localGatewayPaths.subscriptions(merchant), {
        id: request.id,
        planId: request.planId,
        paymentMethodToken: request.paymentMethodToken,
        price: request.price,
        ...(addOns.length > 0 ? { addOns: { add: addOnChanges([], addOns).add } } : {}),
        ...(request.discounts?.length ? { discounts: { add: discountAdditions(request.discounts) } } : {}),
        ...(request.firstBillingDate ? { firstBillingDate: request.firstBillingDate } : {}),
      });
      if (hasCode(answer, SUBSCRIPTION_ID_IN_USE_CODE)) throw new SubscriptionIdTaken(request.id, { cause: answer.body });
      if (answer.status !== 201) throw failure(answer, 'a subscription', `Plan ${request.planId}`);
      return subscriptionIn(answer);
    },

    findSubscription,

    async updateSubscription(id, update) {
      const changingAddOns = (update.addOns?.length ?? 0) > 0 || (update.removeAddOns?.length ?? 0) > 0;
      const changes = changingAddOns
        ? addOnChanges((await findSubscription(id)).addOns, update.addOns, update.removeAddOns)
        : undefined;
      const answer = await send('PUT', localGatewayPaths.subscription(merchant, id), {
        ...(update.paymentMethodToken !== undefined ? { paymentMethodToken: update.paymentMethodToken } : {}),
        ...(update.price !== undefined ? { price: update.price } : {}),
        ...(changes && hasAddOnChanges(changes) ? { addOns: changes } : {}),
        // A declined prorated charge leaves the subscription as it was (Braintree's default, said aloud).
        ...(update.prorateCharges !== undefined
          ? {
              options: {
                prorateCharges: update.prorateCharges,
                ...(update.prorateCharges ? { revertSubscriptionOnProrationFailure: true } : {}),
              },
            }
          : {}),
      });
      if (answer.status !== 200) throw failure(answer, `an update of subscription ${id}`, `Subscription ${id}`);
      return subscriptionIn(answer);
    },

    async retrySubscriptionCharge(id) {
      const answer = await send('POST', localGatewayPaths.retryCharge(merchant, id), { submitForSettlement: true });
      if (answer.status !== 201) throw failure(answer, `a retry of subscription ${id}`, `Subscription ${id}`);
      return transactionIn(answer);
    },

    async cancelSubscription(id) {
      const answer = await send('PUT', localGatewayPaths.cancel(merchant, id));
      if (answer.status === 200) return subscriptionIn(answer);
      // Canceled already (a retried cancel): the outcome the caller wanted.
      if (hasCode(answer, STATUS_IS_CANCELED_CODE)) return findSubscription(id);
      throw failure(answer, `a cancel of subscription ${id}`, `Subscription ${id}`);
    },

    async findTransaction(id) {
      const answer = await send('GET', localGatewayPaths.transaction(merchant, id));
      if (answer.status !== 200) throw failure(answer, `a find of transaction ${id}`, `Transaction ${id}`);
      return transactionIn(answer);
    },

    async refundTransaction({ transactionId, amount: refundAmount, orderId }) {
      const answer = await send('POST', localGatewayPaths.refund(merchant, transactionId), { amount: refundAmount, orderId });
      if (answer.status === 422) throw refundRefusalOf(errorsOf(answer), String(answer.body.message ?? ''));
      if (answer.status !== 201) throw failure(answer, `a refund of ${transactionId}`, `Transaction ${transactionId}`);
      return transactionIn(answer);
    },

    async voidTransaction(id) {
      const answer = await send('PUT', localGatewayPaths.void(merchant, id));
      if (answer.status === 422) throw refundRefusalOf(errorsOf(answer), String(answer.body.message ?? ''));
      if (answer.status !== 200) throw failure(answer, `a void of ${id}`, `Transaction ${id}`);
      return transactionIn(answer);
    },

    async findRefundByOrderId(orderId) {
      const answer = await send('POST', localGatewayPaths.transactionSearch(merchant), {
        orderId: { is: orderId },
        type: { is: 'credit' },
      });
      if (answer.status !== 200) throw failure(answer, `a search for refund ${orderId}`, `Refund ${orderId}`);
      const found = z.array(listedRefundSchema).parse(answer.body.transactions).map(toListedRefund);
      return found.find((credit) => credit.status !== 'voided') ?? null;
    },

    parseWebhook(notification) {
      // Braintree's SDK with the local merchant's keys, as production verifies Braintree's.
      webhookVerifier ??= createBraintreePaymentGateway({ ...keys, environment: 'sandbox' });
      return webhookVerifier.parseWebhook(notification);
    },
  };
}
