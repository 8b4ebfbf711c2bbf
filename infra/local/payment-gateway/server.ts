import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatCents, parseCents } from '../../../functions/lib/payments/amounts';
import { SUBSCRIPTION_STATUSES } from '../../../functions/lib/payments/gateway';
import {
  type LocalCustomerRequest,
  localGatewayPaths,
  type LocalPaymentMethodRequest,
  type LocalSubscriptionCreateRequest,
  type LocalSubscriptionUpdateRequest,
} from '../../../functions/lib/payments/local-gateway-wire';
import { LOCAL_GATEWAY_KEYS, localDemoPlans, type LocalPlanAddOn } from '../../../shared/payments/local-gateway';
import {
  cancelSubscription,
  charge,
  createSubscription,
  declinedCharge,
  GatewayClock,
  type GatewayEvent,
  ID_PATTERN,
  retryCharge,
  runDueBillings,
  succeeded,
  toWireSubscription,
  toWireTransaction,
  updateSubscription,
} from './billing';
import { basicCredentials, corsHeaders, pathSegments, readJson, sendJson } from './http';
import { badRequest, GatewayHttpError, invalid, notFound } from './refusals';
import {
  emptyMerchant,
  type GatewayState,
  type LocalGatewayPlan,
  type MerchantState,
  StateFile,
  type StoredSubscription,
  type StoredTransaction,
} from './state';
import {
  checkFingerprint,
  clientToken,
  createCustomer,
  forgetExpiredNonces,
  toPaymentMethodSummary,
  tokenize,
  vaultPaymentMethod,
} from './vault';
import { type WebhookDelivery, WebhookDispatcher } from './webhooks';

/**
 * The local payment gateway: Braintree's sandbox as its documentation describes it, on one
 * machine with no network, for `npm start` and the tests.
 *
 * - The server API (the adapter in functions/lib/payments/local-gateway.ts): Braintree's
 *   resources and validation codes in JSON, authenticated with HTTP Basic (public key, private
 *   key), every resource kept per merchant.
 * - The browser's tokenize route, with CORS for the allowed origins: card fields become a
 *   single-use nonce, as Braintree's client SDK makes them.
 * - Control routes for tests and the local storefront (no authentication: loopback only): more
 *   merchants, the gateway's clock, a card that starts declining.
 *
 * Subscriptions bill on their dates by the gateway's clock (real time plus an offset the tests
 * move), and webhooks are really sent, signed by Braintree's SDK.
 */

export interface StartLocalPaymentGatewayOptions {
  /** Where the state file lives (kept across restarts). */
  dataDir: string;
  /** Origins the browser's card form may tokenize from. */
  allowedOrigins: readonly string[];
  /** Where the local merchant's webhooks go (the product's webhook route). */
  webhookUrl: string;
  /**
   * The local merchant's plans (the Pro plan's, and the demo plans of shared/payments/
   * local-gateway.ts). Merchants made by POST /__control/merchants without plans get the demo
   * plans in their currency.
   */
  plans: readonly LocalGatewayPlan[];
  log?: (line: string) => void;
  /** The address to listen on; 127.0.0.1 unless given. */
  host?: string;
  /** Pauses before each webhook retry (as many retries as pauses); 1 s, 5 s and 15 s unless given. */
  webhookRetryDelaysMs?: readonly number[];
  /** How long one webhook attempt may take; 5 s unless given. */
  webhookTimeoutMs?: number;
}

export interface LocalPaymentGateway {
  /** The gateway's origin, e.g. http://127.0.0.1:49152 (PAYMENT_GATEWAY_URL). */
  endpoint: string;
  stop(): Promise<void>;
}

/** How often billing dates are looked for as real time passes (the clock control bills at once). */
const BILLING_INTERVAL_MS = 30_000;
const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 15_000];
const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
/** The clock moves at most ten years at a time: enough for any billing test, and no overflow. */
const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 60 * 60;

const NAME_MAX_LENGTH = 100;

function checkName(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > NAME_MAX_LENGTH) {
    throw badRequest(`${what}: name must be text of 1 to ${NAME_MAX_LENGTH} characters.`);
  }
  return value;
}

function checkPlanAddOns(value: unknown, planId: string): LocalPlanAddOn[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest(`Plan ${planId}: addOns must be a list.`);
  const addOns: LocalPlanAddOn[] = [];
  for (const item of value as unknown[]) {
    const { id, name, amount } = (item ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !ID_PATTERN.test(id) || id.length > 64) {
      throw badRequest(`Plan ${planId}: an add-on needs an id of letters, digits, "-" and "_".`);
    }
    if (addOns.some((addOn) => addOn.id === id)) throw badRequest(`Plan ${planId}: add-on ${id} is listed twice.`);
    const cents = typeof amount === 'string' ? parseCents(amount) : undefined;
    if (cents === undefined) throw badRequest(`Plan ${planId}: add-on ${id}'s amount must be a decimal amount such as "2.00".`);
    addOns.push({ id, name: checkName(name, `Plan ${planId}, add-on ${id}`) ?? id, amount: formatCents(cents) });
  }
  return addOns;
}

function checkPlan(value: unknown): LocalGatewayPlan {
  const plan = (value ?? {}) as Partial<Record<keyof LocalGatewayPlan, unknown>>;
  const { id, name, billingFrequencyMonths, price, currency, numberOfBillingCycles, addOns } = plan;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw badRequest('A plan needs an id of letters, digits, "-" and "_".');
  if (
    typeof billingFrequencyMonths !== 'number' ||
    !Number.isInteger(billingFrequencyMonths) ||
    billingFrequencyMonths < 1 ||
    billingFrequencyMonths > 120
  ) {
    throw badRequest(`Plan ${id}: billingFrequencyMonths must be a whole number of months from 1 to 120.`);
  }
  if (typeof price !== 'string' || parseCents(price) === undefined)
    throw badRequest(`Plan ${id}: price must be a decimal amount such as "9.00".`);
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    throw badRequest(`Plan ${id}: currency must be an ISO 4217 code such as "USD".`);
  if (
    numberOfBillingCycles !== undefined &&
    (typeof numberOfBillingCycles !== 'number' || !Number.isInteger(numberOfBillingCycles) || numberOfBillingCycles < 1)
  ) {
    throw badRequest(`Plan ${id}: numberOfBillingCycles must be a whole number of cycles, 1 or more.`);
  }
  return {
    id,
    name: checkName(name, `Plan ${id}`) ?? id,
    billingFrequencyMonths,
    price,
    currency,
    ...(numberOfBillingCycles !== undefined ? { numberOfBillingCycles } : {}),
    addOns: checkPlanAddOns(addOns, id),
  };
}

function checkPlans(value: unknown): LocalGatewayPlan[] {
  if (!Array.isArray(value)) throw badRequest('plans must be a list.');
  const checked = (value as unknown[]).map(checkPlan);
  const ids = new Set(checked.map((plan) => plan.id));
  if (ids.size !== checked.length) throw badRequest('Each plan needs an id of its own.');
  return checked;
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
  'Search by { "orderId": { "is": "..." } } or { "createdAt": { "min": "<ISO 8601>", "max": "<ISO 8601>" } }.';

/**
 * Braintree's transaction search, newest first: by order id, a merchant's one-time sales (not
 * subscription charges) with it; by creation time, every sale (subscription charges too) from
 * `min` (included) to `max` (left out).
 */
function searchTransactions(merchant: MerchantState, body: Record<string, unknown>): StoredTransaction[] {
  if (body.createdAt !== undefined) {
    const { min, max } = (body.createdAt ?? {}) as { min?: unknown; max?: unknown };
    const from = typeof min === 'string' ? Date.parse(min) : Number.NaN;
    const to = typeof max === 'string' ? Date.parse(max) : Number.NaN;
    if (Number.isNaN(from) || Number.isNaN(to)) throw badRequest(SEARCH_TRANSACTIONS_BY);
    return [...merchant.transactions.values()]
      .filter((transaction) => {
        const at = Date.parse(transaction.createdAt);
        return at >= from && at < to;
      })
      .reverse();
  }
  const orderId = (body.orderId as { is?: unknown } | undefined)?.is;
  if (typeof orderId !== 'string' || orderId === '') throw badRequest(SEARCH_TRANSACTIONS_BY);
  return [...merchant.transactions.values()]
    .filter((transaction) => transaction.orderId === orderId && transaction.subscriptionId === undefined)
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

function checkWebhookUrl(value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw badRequest('webhookUrl must be an http(s) URL.');
  }
  return value;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export async function startLocalPaymentGateway(options: StartLocalPaymentGatewayOptions): Promise<LocalPaymentGateway> {
  const log = options.log ?? ((line: string) => console.error(line));
  const plans = checkPlans(options.plans);
  const webhookUrl = checkWebhookUrl(options.webhookUrl);
  const file = new StateFile(options.dataDir, log);
  const state: GatewayState = await file.load();
  const clock = new GatewayClock(state);

  // The local merchant: its keys are fixed; its webhook URL and plans are this start's.
  const localKeys = {
    id: LOCAL_GATEWAY_KEYS.merchantId,
    publicKey: LOCAL_GATEWAY_KEYS.publicKey,
    privateKey: LOCAL_GATEWAY_KEYS.privateKey,
  };
  const local =
    state.merchants.get(localKeys.id) ?? emptyMerchant({ ...localKeys, webhookUrl, currency: plans[0]?.currency ?? 'USD' });
  Object.assign(local, { ...localKeys, webhookUrl, currency: plans[0]?.currency ?? local.currency });
  local.plans = new Map(plans.map((plan) => [plan.id, plan]));
  state.merchants.set(local.id, local);

  const dispatcher = new WebhookDispatcher({
    targetOf: (merchantId) => {
      const merchant = state.merchants.get(merchantId);
      return merchant
        ? {
            keys: { merchantId: merchant.id, publicKey: merchant.publicKey, privateKey: merchant.privateKey },
            webhookUrl: merchant.webhookUrl,
          }
        : undefined;
    },
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    log,
  });

  /** Bills whatever came due by the gateway's clock; the events are the caller's to send. */
  const catchUp = (): GatewayEvent[] => {
    const events: GatewayEvent[] = [];
    runDueBillings(state, clock.today(), events);
    return events;
  };
  const save = () => file.save(state);
  /** Webhooks of changes the caller did not wait for: their outcome is only logged. */
  const sendLater = (events: readonly GatewayEvent[]) => {
    if (events.length > 0) void dispatcher.send(events);
  };

  const isTokenTaken = (token: string) => [...state.merchants.values()].some((merchant) => merchant.paymentMethods.has(token));
  const endpointHost = !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  let endpoint = '';

  function authenticate(request: IncomingMessage, merchantId: string): MerchantState {
    const credentials = basicCredentials(request.headers.authorization);
    const merchant = credentials && [...state.merchants.values()].find((candidate) => candidate.publicKey === credentials.user);
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

  const subscriptionOf = (merchant: MerchantState, id: string) => {
    const subscription = merchant.subscriptions.get(id);
    if (!subscription) throw notFound(`Subscription ${id}`);
    return subscription;
  };

  /** The server API: /merchants/{merchantId}/... */
  async function serverApi(
    request: IncomingMessage,
    response: ServerResponse,
    merchantId: string,
    rest: string[],
  ): Promise<void> {
    const merchant = authenticate(request, merchantId);
    const method = request.method ?? 'GET';
    const body = method === 'GET' ? {} : await readJson(request);
    const now = clock.now();
    const today = clock.today();
    const events = catchUp();
    const [resource, id, action, ...extra] = rest;
    const route =
      (resource === 'transactions' || resource === 'subscriptions') && id === 'advanced_search' && action === undefined
        ? `${method} ${resource}/advanced_search`
        : `${method} ${resource ?? ''}${id !== undefined ? '/:id' : ''}${action !== undefined ? `/${action}` : ''}`;
    if (extra.length > 0) throw notFound('This route');
    const handle = (): [number, unknown] => {
      switch (route) {
        case 'POST client_token': {
          const customerId = body.customerId === undefined ? undefined : String(body.customerId);
          const tokenizeUrl = `${endpoint}${localGatewayPaths.tokenize(merchant.id)}`;
          return [201, { clientToken: clientToken(merchant, customerId, tokenizeUrl, now) }];
        }
        case 'GET customers/:id': {
          const customer = merchant.customers.get(id ?? '');
          if (!customer) throw notFound(`Customer ${id}`);
          return [200, { customer }];
        }
        case 'POST customers':
          return [201, { customer: createCustomer(merchant, body as unknown as LocalCustomerRequest, now) }];
        case 'POST payment_methods': {
          forgetExpiredNonces(merchant, now);
          const method = vaultPaymentMethod(merchant, body as unknown as LocalPaymentMethodRequest, now, isTokenTaken);
          return [201, { paymentMethod: toPaymentMethodSummary(method) }];
        }
        case 'POST transactions': {
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
        case 'POST transactions/advanced_search':
          return [200, { transactions: searchTransactions(merchant, body).map(toWireTransaction) }];
        case 'POST subscriptions/advanced_search':
          return [
            200,
            {
              subscriptions: subscriptionsInStatus(merchant, body).map((subscription) =>
                toWireSubscription(merchant, subscription, today),
              ),
            },
          ];
        case 'GET plans':
          return [200, { plans: [...merchant.plans.values()].map(toWirePlan) }];
        case 'POST subscriptions': {
          const subscription = createSubscription(merchant, body as unknown as LocalSubscriptionCreateRequest, now, events);
          return [201, { subscription: toWireSubscription(merchant, subscription, today) }];
        }
        case 'GET subscriptions/:id':
          return [
            200,
            {
              subscription: toWireSubscription(merchant, subscriptionOf(merchant, id ?? ''), today),
            },
          ];
        case 'PUT subscriptions/:id': {
          const subscription = subscriptionOf(merchant, id ?? '');
          updateSubscription(merchant, subscription, body as LocalSubscriptionUpdateRequest, now);
          return [200, { subscription: toWireSubscription(merchant, subscription, today) }];
        }
        case 'POST subscriptions/:id/retry_charge': {
          const transaction = retryCharge(merchant, subscriptionOf(merchant, id ?? ''), body, now, events);
          return [201, { transaction: toWireTransaction(transaction) }];
        }
        case 'PUT subscriptions/:id/cancel': {
          const subscription = subscriptionOf(merchant, id ?? '');
          cancelSubscription(merchant, subscription, now, events);
          return [200, { subscription: toWireSubscription(merchant, subscription, today) }];
        }
        default:
          throw notFound('This route');
      }
    };
    let answer: [number, unknown];
    try {
      answer = handle();
    } finally {
      // Saved before answering, refusals too: a declined charge is kept and a nonce spent.
      if (method !== 'GET' || events.length > 0) await save();
      sendLater(events);
    }
    sendJson(response, ...answer);
  }

  /** The browser's card form: tokenize, with CORS for the allowed origins only. */
  async function tokenizeRoute(request: IncomingMessage, response: ServerResponse, merchantId: string): Promise<void> {
    const origin = request.headers.origin;
    const allowed = origin !== undefined && options.allowedOrigins.includes(origin);
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
      const merchant = state.merchants.get(merchantId);
      if (!merchant) throw notFound(`Merchant ${merchantId}`);
      const body = await readJson(request);
      const now = clock.now();
      checkFingerprint(merchant, body.authorizationFingerprint, now);
      forgetExpiredNonces(merchant, now);
      const tokenized = tokenize(merchant, body, now);
      await save();
      sendJson(response, 201, tokenized, cors);
    } catch (error) {
      // The browser may read the refusal only with the CORS headers on it.
      if (error instanceof GatewayHttpError) throw new GatewayHttpError(error.status, error.body, { ...error.headers, ...cors });
      throw error;
    }
  }

  async function createMerchant(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const merchantId = body.merchantId ?? `merchant_${randomBytes(4).toString('hex')}`;
    if (typeof merchantId !== 'string' || !ID_PATTERN.test(merchantId) || merchantId.length > 64) {
      throw badRequest('merchantId must be letters, digits, "-" and "_" (64 at most).');
    }
    if (state.merchants.has(merchantId)) throw new GatewayHttpError(409, { message: `Merchant ${merchantId} exists already.` });
    const key = (value: unknown, name: string, fallback: string) => {
      if (value === undefined) return fallback;
      if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{8,64}$/.test(value))
        throw badRequest(`${name} must be 8 to 64 letters, digits, "-" or "_".`);
      return value;
    };
    const publicKey = key(body.publicKey, 'publicKey', randomBytes(8).toString('hex'));
    const privateKey = key(body.privateKey, 'privateKey', randomBytes(16).toString('hex'));
    if ([...state.merchants.values()].some((merchant) => merchant.publicKey === publicKey)) {
      throw new GatewayHttpError(409, { message: 'Another merchant has this public key.' });
    }
    const namedPlans = body.plans === undefined ? undefined : checkPlans(body.plans);
    const currency = body.currency ?? namedPlans?.[0]?.currency ?? 'USD';
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
      throw badRequest('currency must be an ISO 4217 code such as "USD".');
    // Without plans, the demo plans (monthly, quarterly, yearly, with two add-ons) in its currency.
    const merchantPlans = namedPlans ?? localDemoPlans(currency).map(checkPlan);
    const merchant = emptyMerchant({
      id: merchantId,
      publicKey,
      privateKey,
      webhookUrl: checkWebhookUrl(body.webhookUrl),
      currency,
    });
    merchant.plans = new Map(merchantPlans.map((plan) => [plan.id, plan]));
    state.merchants.set(merchant.id, merchant);
    await save();
    return { merchantId, publicKey, privateKey, webhookUrl: merchant.webhookUrl, currency, plans: merchantPlans };
  }

  const clockAnswer = () => ({
    now: clock.now().toISOString(),
    today: clock.today(),
    offsetSeconds: Math.floor(state.clockOffsetMs / 1_000),
  });

  async function advanceClock(body: Record<string, unknown>): Promise<{ events: GatewayEvent[]; deliveries: WebhookDelivery[] }> {
    const { advanceDays, advanceSeconds } = body;
    const whole = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
    if (!whole(advanceDays) || !whole(advanceSeconds) || (advanceDays === undefined && advanceSeconds === undefined)) {
      throw badRequest(
        'Send { "advanceDays": n } or { "advanceSeconds": n }: whole numbers, 0 or more (the clock only moves forward).',
      );
    }
    const seconds = ((advanceDays as number | undefined) ?? 0) * 86_400 + ((advanceSeconds as number | undefined) ?? 0);
    if (seconds > MAX_ADVANCE_SECONDS) throw badRequest('The clock moves ten years at most at a time.');
    clock.advance(seconds * 1_000);
    const events = catchUp();
    await save();
    return { events, deliveries: await dispatcher.send(events) };
  }

  async function setDeclining(token: string, body: Record<string, unknown>) {
    if (typeof body.declining !== 'boolean') throw badRequest('Send { "declining": true } or { "declining": false }.');
    for (const merchant of state.merchants.values()) {
      const method = merchant.paymentMethods.get(token);
      if (!method) continue;
      method.declining = body.declining;
      await save();
      return { token, merchantId: merchant.id, declining: method.declining };
    }
    throw notFound(`Payment method ${token}`);
  }

  /** /__control/...: no authentication, as it is reachable on loopback only. */
  async function control(request: IncomingMessage, response: ServerResponse, rest: string[]): Promise<void> {
    const method = request.method ?? 'GET';
    const route = `${method} ${rest.map((segment, index) => (rest[0] === 'payment-methods' && index === 1 ? ':token' : segment)).join('/')}`;
    switch (route) {
      case 'POST merchants':
        return sendJson(response, 201, await createMerchant(await readJson(request)));
      case 'GET clock':
        return sendJson(response, 200, clockAnswer());
      case 'POST clock': {
        const happened = await advanceClock(await readJson(request));
        return sendJson(response, 200, { ...clockAnswer(), ...happened });
      }
      case 'POST payment-methods/:token/decline':
        return sendJson(response, 200, await setDeclining(rest[1] ?? '', await readJson(request)));
      default:
        throw notFound('This control route');
    }
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { segments } = pathSegments(request.url);
    const [first, merchantId, ...rest] = segments;
    if (first === '__control') return control(request, response, segments.slice(1));
    if (first === 'merchants' && merchantId !== undefined) {
      if (rest.join('/') === 'client_api/v1/payment_methods/credit_cards') return tokenizeRoute(request, response, merchantId);
      return serverApi(request, response, merchantId, rest);
    }
    throw notFound('This route');
  }

  function sendError(response: ServerResponse, error: unknown): void {
    if (response.headersSent || response.destroyed) {
      response.destroy();
      return;
    }
    if (error instanceof GatewayHttpError) return sendJson(response, error.status, error.body, error.headers);
    log(`Local payment gateway: ${(error as Error).stack ?? String(error)}`);
    sendJson(response, 500, { message: 'The local payment gateway failed on this request; see its log.' });
  }

  const server = createServer((request, response) => {
    request.on('error', () => undefined);
    response.on('error', () => undefined);
    route(request, response).catch((error: unknown) => sendError(response, error));
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  endpoint = `http://${endpointHost}:${(server.address() as AddressInfo).port}`;

  // What fell due while the gateway was stopped is billed now, as Braintree would have.
  const startEvents = catchUp();
  await save();
  sendLater(startEvents);
  const billing = setInterval(() => {
    const events = catchUp();
    if (events.length === 0) return;
    save().catch((error: unknown) => log(`Local payment gateway: could not save its state: ${(error as Error).message}`));
    sendLater(events);
  }, BILLING_INTERVAL_MS);
  billing.unref();

  let stopped: Promise<void> | undefined;
  return {
    endpoint,
    stop: () =>
      (stopped ??= (async () => {
        clearInterval(billing);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await dispatcher.stop();
        await file.settled();
      })()),
  };
}
