import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatCents, parseCents } from '../../../functions/lib/payments/amounts';
import { SUBSCRIPTION_STATUSES } from '../../../functions/lib/payments/gateway';
import {
  type LocalCustomerRequest,
  localGatewayPaths,
  type LocalPaymentMethodRequest,
  type LocalSubscriptionCreateRequest,
  type LocalSubscriptionUpdateRequest,
} from '../../../functions/lib/payments/local-gateway-wire';
import {
  cancelSubscription,
  charge,
  createSubscription,
  declinedCharge,
  type GatewayEvent,
  refund,
  retryCharge,
  succeeded,
  toWireSubscription,
  toWireTransaction,
  updateSubscription,
  voidTransaction,
} from './billing';
import { basicCredentials, corsHeaders, readJson, sendJson } from './http';
import { GatewayHttpError, badRequest, invalid, notFound } from './refusals';
import type { LocalGatewayPlan, MerchantState, StoredSubscription, StoredTransaction } from './state';
import type { GatewayStore } from './store';
import {
  checkFingerprint,
  clientToken,
  createCustomer,
  forgetExpiredNonces,
  toPaymentMethodSummary,
  tokenize,
  vaultPaymentMethod,
} from './vault';
import type { BillingWorker } from './worker';

/** What the routes answer from: the records, the billing they catch up on first, and where the gateway listens. */
export interface GatewayApi {
  store: GatewayStore;
  billing: BillingWorker;
  /** The gateway's origin, for the tokenize URL a client token carries. */
  endpoint: string;
  /** Origins the browser's card form may tokenize from. */
  allowedOrigins: readonly string[];
  log: (line: string) => void;
}

/** A plan as GET /merchants/{m}/plans answers it (the port's GatewayPlan, and Braintree's cycles). */
const toWirePlan = (plan: LocalGatewayPlan) => ({
  id: plan.id,
  // Plans saved before plans had names and add-ons answer with their id and none.
  name: plan.name ?? plan.id,
  price: formatCents(parseCents(plan.price) ?? 0),
  currency: plan.currency,
  billingFrequency: plan.billingFrequencyMonths,
  addOns: (plan.addOns ?? []).map((addOn) => ({ id: addOn.id, name: addOn.name, amount: addOn.amount })),
  numberOfBillingCycles: plan.numberOfBillingCycles ?? null,
});

const SEARCH_TRANSACTIONS_BY =
  'Search by { "orderId": { "is": "..." } } or { "createdAt": { "min": "<ISO 8601>", "max": "<ISO 8601>" } }, each with an optional { "type": { "is": "sale" | "credit" } }.';

/**
 * Braintree's transaction search, newest first, of one type (`type: { is: 'sale' | 'credit' }`,
 * sales when left out): by order id, a merchant's one-time sales (not subscription charges) with
 * it, or its refunds; by creation time, every sale (subscription charges too) or every refund
 * from `min` (included) to `max` (left out).
 */
function searchTransactions(merchant: MerchantState, body: Record<string, unknown>): StoredTransaction[] {
  const type = (body.type as { is?: unknown } | undefined)?.is ?? 'sale';
  if (type !== 'sale' && type !== 'credit') throw badRequest(SEARCH_TRANSACTIONS_BY);
  if (body.createdAt !== undefined) {
    const { min, max } = (body.createdAt ?? {}) as { min?: unknown; max?: unknown };
    const from = typeof min === 'string' ? Date.parse(min) : Number.NaN;
    const to = typeof max === 'string' ? Date.parse(max) : Number.NaN;
    if (Number.isNaN(from) || Number.isNaN(to)) throw badRequest(SEARCH_TRANSACTIONS_BY);
    return [...merchant.transactions.values()]
      .filter((transaction) => {
        const at = Date.parse(transaction.createdAt);
        return at >= from && at < to && (transaction.type ?? 'sale') === type;
      })
      .reverse();
  }
  const orderId = (body.orderId as { is?: unknown } | undefined)?.is;
  if (typeof orderId !== 'string' || orderId === '') throw badRequest(SEARCH_TRANSACTIONS_BY);
  return [...merchant.transactions.values()]
    .filter(
      (transaction) =>
        transaction.orderId === orderId && transaction.subscriptionId === undefined && (transaction.type ?? 'sale') === type,
    )
    .reverse();
}

/** Braintree's subscription search by status: the merchant's subscriptions in those statuses, in the order they were made. */
function subscriptionsInStatus(merchant: MerchantState, body: Record<string, unknown>): StoredSubscription[] {
  const { status } = body;
  if (!Array.isArray(status) || !status.every((value) => (SUBSCRIPTION_STATUSES as readonly unknown[]).includes(value))) {
    throw badRequest(`Search by { "status": [...] } with statuses of ${SUBSCRIPTION_STATUSES.join(', ')}.`);
  }
  return [...merchant.subscriptions.values()].filter((subscription) => (status as unknown[]).includes(subscription.status));
}
const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The merchant whose keys the request carries (HTTP Basic, public key and private key): 401 for unknown keys, 403 for another merchant's path. */
function authenticate(store: GatewayStore, request: IncomingMessage, merchantId: string): MerchantState {
  const credentials = basicCredentials(request.headers.authorization);
  const merchant = credentials && store.merchantWithPublicKey(credentials.user);
  if (!credentials || !merchant || !sameSecret(credentials.password, merchant.privateKey)) {
    throw new GatewayHttpError(
      401,
      { message: 'Authentication failed: check the public and private keys.' },
      { 'WWW-Authenticate': 'Basic realm="local payment gateway"' },
    );
  }
  if (merchant.id !== merchantId)
    throw new GatewayHttpError(403, { message: "Authorization failed: these keys are not this merchant's." });
  return merchant;
}

/** One server API call, authenticated and caught up on billing. */
interface ServerCall {
  api: GatewayApi;
  merchant: MerchantState;
  body: Record<string, unknown>;
  /** The path's id, '' for a route without one. */
  id: string;
  now: Date;
  today: string;
  /** What the call makes happen, for the merchant's webhooks. */
  events: GatewayEvent[];
}

type ServerRoute = (call: ServerCall) => [number, unknown];

const subscriptionOf = (merchant: MerchantState, id: string) => {
  const subscription = merchant.subscriptions.get(id);
  if (!subscription) throw notFound(`Subscription ${id}`);
  return subscription;
};

/** A sale: declined charges are kept (and answered 422), an unsubmitted one stays authorized. */
function sale({ merchant, body, now }: ServerCall): [number, unknown] {
  const { amount, paymentMethodToken, orderId } = body;
  const cents = typeof amount === 'string' ? parseCents(amount) : undefined;
  if (amount === undefined) throw invalid('81502', 'amount', 'Amount is required.');
  if (cents === undefined) throw invalid('81503', 'amount', 'Amount is an invalid format.');
  if (cents === 0) throw invalid('81531', 'amount', 'Amount must be greater than zero.');
  if (typeof paymentMethodToken !== 'string' || !merchant.paymentMethods.has(paymentMethodToken)) {
    throw invalid('91518', 'payment_method_token', 'Payment method token is invalid.');
  }
  if (orderId !== undefined && (typeof orderId !== 'string' || orderId.length > 255)) {
    throw invalid('91501', 'order_id', 'Order ID is too long.');
  }
  const submit = (body.options as { submitForSettlement?: unknown } | undefined)?.submitForSettlement === true;
  const transaction = charge(merchant, {
    paymentMethodToken,
    amountCents: cents,
    at: now.toISOString(),
    currency: merchant.currency,
    ...(orderId !== undefined ? { orderId } : {}),
  });
  if (!succeeded(transaction)) throw declinedCharge(transaction);
  if (!submit) transaction.status = 'authorized';
  return [201, { transaction: toWireTransaction(transaction) }];
}

const transactionOf = (merchant: MerchantState, id: string) => {
  const transaction = merchant.transactions.get(id);
  if (!transaction) throw notFound(`Transaction ${id}`);
  return transaction;
};

/** A refund of a settled sale: the whole of what is left, or `amount` of it. */
function refundRoute({ merchant, body, id, now }: ServerCall): [number, unknown] {
  const { amount, orderId } = body;
  const cents = typeof amount === 'string' ? parseCents(amount) : undefined;
  if (amount !== undefined && cents === undefined) throw invalid('81503', 'amount', 'Amount is an invalid format.');
  if (orderId !== undefined && (typeof orderId !== 'string' || orderId.length > 255)) {
    throw invalid('91501', 'order_id', 'Order ID is too long.');
  }
  const credit = refund(merchant, transactionOf(merchant, id), {
    at: now.toISOString(),
    ...(cents !== undefined ? { amountCents: cents } : {}),
    ...(typeof orderId === 'string' ? { orderId } : {}),
  });
  return [201, { transaction: toWireTransaction(credit) }];
}

/** The server API's routes, by method and path shape. */
const SERVER_ROUTES = new Map<string, ServerRoute>([
  [
    'POST client_token',
    ({ api, merchant, body, now }) => {
      const customerId = body.customerId === undefined ? undefined : String(body.customerId);
      const tokenizeUrl = `${api.endpoint}${localGatewayPaths.tokenize(merchant.id)}`;
      return [201, { clientToken: clientToken(merchant, customerId, tokenizeUrl, now) }];
    },
  ],
  [
    'GET customers/:id',
    ({ merchant, id }) => {
      const customer = merchant.customers.get(id);
      if (!customer) throw notFound(`Customer ${id}`);
      return [200, { customer }];
    },
  ],
  [
    'POST customers',
    ({ merchant, body, now }) => [201, { customer: createCustomer(merchant, body as unknown as LocalCustomerRequest, now) }],
  ],
  [
    'POST payment_methods',
    ({ api, merchant, body, now }) => {
      forgetExpiredNonces(merchant, now);
      const method = vaultPaymentMethod(merchant, body as unknown as LocalPaymentMethodRequest, now, (token) =>
        api.store.isTokenTaken(token),
      );
      return [201, { paymentMethod: toPaymentMethodSummary(method) }];
    },
  ],
  ['POST transactions', sale],
  ['GET transactions/:id', ({ merchant, id }) => [200, { transaction: toWireTransaction(transactionOf(merchant, id)) }]],
  ['POST transactions/:id/refund', refundRoute],
  [
    'PUT transactions/:id/void',
    ({ merchant, id }) => [200, { transaction: toWireTransaction(voidTransaction(transactionOf(merchant, id))) }],
  ],
  [
    'POST transactions/advanced_search',
    ({ merchant, body }) => [200, { transactions: searchTransactions(merchant, body).map(toWireTransaction) }],
  ],
  [
    'POST subscriptions/advanced_search',
    ({ merchant, body, today }) => [
      200,
      {
        subscriptions: subscriptionsInStatus(merchant, body).map((subscription) =>
          toWireSubscription(merchant, subscription, today),
        ),
      },
    ],
  ],
  ['GET plans', ({ merchant }) => [200, { plans: [...merchant.plans.values()].map(toWirePlan) }]],
  [
    'POST subscriptions',
    ({ merchant, body, now, today, events }) => {
      const subscription = createSubscription(merchant, body as unknown as LocalSubscriptionCreateRequest, now, events);
      return [201, { subscription: toWireSubscription(merchant, subscription, today) }];
    },
  ],
  [
    'GET subscriptions/:id',
    ({ merchant, id, today }) => [200, { subscription: toWireSubscription(merchant, subscriptionOf(merchant, id), today) }],
  ],
  [
    'PUT subscriptions/:id',
    ({ merchant, body, id, now, today }) => {
      const subscription = subscriptionOf(merchant, id);
      updateSubscription(merchant, subscription, body as LocalSubscriptionUpdateRequest, now);
      return [200, { subscription: toWireSubscription(merchant, subscription, today) }];
    },
  ],
  [
    'POST subscriptions/:id/retry_charge',
    ({ merchant, body, id, now, events }) => {
      const transaction = retryCharge(merchant, subscriptionOf(merchant, id), body, now, events);
      return [201, { transaction: toWireTransaction(transaction) }];
    },
  ],
  [
    'PUT subscriptions/:id/cancel',
    ({ merchant, id, now, today, events }) => {
      const subscription = subscriptionOf(merchant, id);
      cancelSubscription(merchant, subscription, now, events);
      return [200, { subscription: toWireSubscription(merchant, subscription, today) }];
    },
  ],
]);

/** The server API, /merchants/{merchantId}/...: Braintree's resources, what came due billed first. */
export async function serverApi(
  api: GatewayApi,
  request: IncomingMessage,
  response: ServerResponse,
  merchantId: string,
  rest: string[],
): Promise<void> {
  const merchant = authenticate(api.store, request, merchantId);
  const method = request.method ?? 'GET';
  const body = method === 'GET' ? {} : await readJson(request);
  const now = api.store.clock.now();
  const today = api.store.clock.today();
  const events = api.billing.catchUp();
  const [resource, id, action, ...extra] = rest;
  const route =
    (resource === 'transactions' || resource === 'subscriptions') && id === 'advanced_search' && action === undefined
      ? `${method} ${resource}/advanced_search`
      : `${method} ${resource ?? ''}${id !== undefined ? '/:id' : ''}${action !== undefined ? `/${action}` : ''}`;
  if (extra.length > 0) throw notFound('This route');
  let answer: [number, unknown];
  try {
    const handle = SERVER_ROUTES.get(route);
    if (!handle) throw notFound('This route');
    answer = handle({ api, merchant, body, id: id ?? '', now, today, events });
  } finally {
    // Saved before answering, refusals too: a declined charge is kept and a nonce spent.
    if (method !== 'GET' || events.length > 0) await api.store.save();
    api.billing.sendLater(events);
  }
  sendJson(response, ...answer);
}

/** The browser's card form: tokenize, with CORS for the allowed origins only. */
export async function tokenizeRoute(
  api: GatewayApi,
  request: IncomingMessage,
  response: ServerResponse,
  merchantId: string,
): Promise<void> {
  const origin = request.headers.origin;
  const allowed = origin !== undefined && api.allowedOrigins.includes(origin);
  const cors = allowed ? corsHeaders(origin, request.headers['access-control-request-headers']) : {};
  if (origin !== undefined && !allowed) {
    throw new GatewayHttpError(403, { message: `The origin ${origin} may not use the local payment gateway's card form.` });
  }
  if (request.method === 'OPTIONS') {
    response.writeHead(204, cors).end();
    return;
  }
  if (request.method !== 'POST') throw new GatewayHttpError(405, { message: 'Use POST.' }, { Allow: 'POST, OPTIONS' });
  try {
    const merchant = api.store.merchant(merchantId);
    if (!merchant) throw notFound(`Merchant ${merchantId}`);
    const body = await readJson(request);
    const now = api.store.clock.now();
    checkFingerprint(merchant, body.authorizationFingerprint, now);
    forgetExpiredNonces(merchant, now);
    const tokenized = tokenize(merchant, body, now);
    await api.store.save();
    sendJson(response, 201, tokenized, cors);
  } catch (error) {
    // The browser may read the refusal only with the CORS headers on it.
    if (error instanceof GatewayHttpError) throw new GatewayHttpError(error.status, error.body, { ...error.headers, ...cors });
    throw error;
  }
}

/** A refusal as the gateway answers it; anything else is a 500 whose cause goes to the log. */
export function sendError(response: ServerResponse, error: unknown, log: (line: string) => void): void {
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return;
  }
  if (error instanceof GatewayHttpError) return sendJson(response, error.status, error.body, error.headers);
  log(`Local payment gateway: ${(error as Error).stack ?? String(error)}`);
  sendJson(response, 500, { message: 'The local payment gateway failed on this request; see its log.' });
}
