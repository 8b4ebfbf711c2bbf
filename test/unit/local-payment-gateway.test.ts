import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GatewayCredentialsRejected,
  InvalidWebhookSignature,
  type PaymentGateway,
  PaymentDeclined,
  PaymentGatewayUnavailable,
  PaymentRecordNotFound,
  RefundRefused,
  SubscriptionIdTaken,
} from '../../functions/lib/payments/gateway';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { type LocalPaymentGateway, startLocalPaymentGateway } from '../../infra/local/payment-gateway';
import { proratedCents } from '../../infra/local/payment-gateway/billing';
import type { LocalGatewayPlan, StoredSubscription } from '../../infra/local/payment-gateway/state';
import {
  decodeLocalClientToken,
  LOCAL_DEMO_PLANS,
  LOCAL_GATEWAY_KEYS,
  type LocalTokenizeRequest,
} from '../../shared/payments/local-gateway';

const ALLOWED_ORIGIN = 'http://localhost:5173';
const PLANS: LocalGatewayPlan[] = [
  { id: 'pro-monthly', billingFrequencyMonths: 1, price: '9.00', currency: 'USD' },
  { id: 'pro-two-cycles', billingFrequencyMonths: 1, price: '5.00', currency: 'USD', numberOfBillingCycles: 2 },
  {
    id: 'team-quarterly',
    name: 'Team, quarterly',
    billingFrequencyMonths: 3,
    price: '30',
    currency: 'USD',
    addOns: [
      { id: 'extra-seat', name: 'Extra seat', amount: '2' },
      { id: 'priority-support', name: 'Priority support', amount: '5.00' },
    ],
  },
];
const DAY_MS = 86_400_000;

interface ReceivedWebhook {
  signature: string;
  payload: string;
}

/** The product's webhook route, standing in: records each form POST, answers the status given. */
async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const status = answers.shift() ?? 200;
      if (status === 200) received.push({ signature: form.get('bt_signature') ?? '', payload: form.get('bt_payload') ?? '' });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/webhooks`,
    received,
    /** The statuses the next POSTs are answered with (200 after these). */
    answerNext: (...statuses: number[]) => answers.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startGateway(options: { dataDir?: string; receiver?: Receiver; retryDelaysMs?: number[] } = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'payment-gateway-'));
  if (!options.dataDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const receiver = options.receiver ?? (await startWebhookReceiver());
  if (!options.receiver) cleanups.push(receiver.close);
  const logged: string[] = [];
  const server: LocalPaymentGateway = await startLocalPaymentGateway({
    dataDir,
    allowedOrigins: [ALLOWED_ORIGIN],
    webhookUrl: receiver.url,
    plans: PLANS,
    log: (line) => logged.push(line),
    webhookRetryDelaysMs: options.retryDelaysMs ?? [20, 40],
    webhookTimeoutMs: 1_000,
  });
  cleanups.push(server.stop);
  const gateway = createLocalPaymentGateway(server.endpoint);
  return { server, gateway, receiver, dataDir, logged };
}

async function control(server: LocalPaymentGateway, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.endpoint}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface ClockAnswer {
  now: string;
  today: string;
  events: { kind: string; subscriptionId: string; transaction?: { amount: string; status: string } }[];
  deliveries: { kind: string; delivered: boolean; attempts: number }[];
}

async function advanceClock(server: LocalPaymentGateway, body: { advanceDays?: number; advanceSeconds?: number }) {
  const answer = await control(server, 'POST', '/__control/clock', body);
  expect(answer.status).toBe(200);
  return answer.body as unknown as ClockAnswer;
}

/** Days from the gateway's today to `day`. */
async function daysUntil(server: LocalPaymentGateway, day: string) {
  const clock = (await control(server, 'GET', '/__control/clock')).body as { today: string };
  return Math.round((Date.parse(day) - Date.parse(clock.today)) / DAY_MS);
}

async function waitFor(condition: () => boolean, what: string) {
  const deadline = Date.now() + 3_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function customerWithCard(gateway: PaymentGateway, nonce = 'fake-valid-visa-nonce', customerId = 'customer-1') {
  await gateway.ensureCustomer({ id: customerId, email: `${customerId}@example.com`, name: 'Ada Lovelace' });
  return gateway.vaultPaymentMethod({ customerId, nonce });
}

/** The kinds of the webhooks received, each verified by the adapter as the product verifies them. */
async function receivedKinds(gateway: PaymentGateway, receiver: Receiver) {
  const parsed = await Promise.all(receiver.received.map((webhook) => gateway.parseWebhook(webhook)));
  return parsed.map((webhook) => `${webhook.kind} ${webhook.subscriptionId ?? ''}`.trim());
}

async function tokenizeRequest(
  server: LocalPaymentGateway,
  clientToken: string,
  body: Omit<LocalTokenizeRequest, 'authorizationFingerprint'>,
  origin?: string,
) {
  const token = decodeLocalClientToken(clientToken);
  if (!token) throw new Error('not a local client token');
  expect(token.tokenizeUrl.startsWith(server.endpoint)).toBe(true);
  return fetch(token.tokenizeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ authorizationFingerprint: token.authorizationFingerprint, ...body }),
  });
}

async function declineOf(work: Promise<unknown>): Promise<PaymentDeclined> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentDeclined);
  return error as PaymentDeclined;
}

describe('local payment gateway: cards and sales', () => {
  it('vaults an approved test nonce and charges it, submitted for settlement', async () => {
    // Prepare
    const { gateway } = await startGateway();

    // Act
    const card = await customerWithCard(gateway);
    const sale = await gateway.sale({ amount: '12.50', paymentMethodToken: card.token, orderId: 'order-1' });

    // Assess
    expect(gateway.environment).toBe('local');
    expect(card).toMatchObject({ cardType: 'Visa', last4: '1881' });
    expect(card.expirationDate).toMatch(/^12\/\d{4}$/);
    expect(sale).toMatchObject({ status: 'submitted_for_settlement', amount: '12.50', currency: 'USD' });
    expect(sale.processorResponseText).toBeUndefined();
  });

  it('creates a customer once: a second ensureCustomer changes nothing', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    await gateway.ensureCustomer({ id: 'customer-1', email: 'first@example.com' });

    // Act
    await gateway.ensureCustomer({ id: 'customer-1', email: 'second@example.com' });

    // Assess
    const answer = await fetch(`${server.endpoint}/merchants/local-merchant/customers/customer-1`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${LOCAL_GATEWAY_KEYS.publicKey}:${LOCAL_GATEWAY_KEYS.privateKey}`).toString('base64')}`,
      },
    });
    expect(((await answer.json()) as { customer: { email: string } }).customer.email).toBe('first@example.com');
  });

  it.each([
    [
      'fake-processor-declined-visa-nonce',
      'processor_declined',
      'Your card was declined by your bank (Do Not Honor). Try another card.',
    ],
    ['fake-processor-failure-visa-nonce', 'failed', 'Processor Network Unavailable - Try Again'],
    ['fake-processor-failure-jcb-nonce', 'failed', 'Processor Network Unavailable - Try Again'],
    ['fake-gateway-rejected-fraud-nonce', 'gateway_rejected', 'fraud checks'],
    ['fake-consumed-nonce', 'consumed_nonce', 'used already'],
    ['fake-luhn-invalid-nonce', 'invalid_card', 'card number is not valid'],
    ['not-a-nonce-anyone-made', 'invalid_nonce', 'expired or were not recognised'],
  ])('refuses to vault %s: PaymentDeclined %s', async (nonce, reason, words) => {
    // Prepare
    const { gateway } = await startGateway();
    await gateway.ensureCustomer({ id: 'customer-1', email: 'buyer@example.com' });

    // Act
    const declined = await declineOf(gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce }));

    // Assess
    expect(declined.reason).toBe(reason);
    expect(declined.statusCode).toBe(402);
    expect(declined.message).toContain(words);
  });

  it.each([
    ['2000.00', 'processor_declined', 'Do Not Honor'],
    ['2001.50', 'processor_declined', 'Insufficient Funds'],
    ['2999.99', 'processor_declined', 'Processor Declined'],
    ['3000.00', 'failed', 'Processor Network Unavailable - Try Again'],
    ['3000.99', 'failed', 'Processor Network Unavailable - Try Again'],
    ['5001.00', 'gateway_rejected', undefined],
  ])('declines a sale of %s: %s', async (amount, reason, processorResponseText) => {
    // Prepare
    const { gateway } = await startGateway();
    const card = await customerWithCard(gateway);

    // Act
    const declined = await declineOf(gateway.sale({ amount, paymentMethodToken: card.token, orderId: 'order-1' }));

    // Assess
    expect(declined.reason).toBe(reason);
    expect(declined.details.processorResponseText).toBe(processorResponseText);
  });

  it.each(['1999.99', '3001.00', '5001.01', '0.01'])('approves a sale of %s', async (amount) => {
    // Prepare
    const { gateway } = await startGateway();
    const card = await customerWithCard(gateway);

    // Act
    const sale = await gateway.sale({ amount, paymentMethodToken: card.token, orderId: 'order-1' });

    // Assess
    expect(sale.status).toBe('submitted_for_settlement');
    expect(sale.amount).toBe(amount);
  });
});

describe('local payment gateway: the browser card form', () => {
  it('tokenizes a test card into a nonce that vaults once, then is spent', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    await gateway.ensureCustomer({ id: 'customer-1', email: 'buyer@example.com' });
    const clientToken = await gateway.clientToken('customer-1');

    // Act
    const response = await tokenizeRequest(server, clientToken, {
      creditCard: { number: '4111 1111 1111 1111', expirationDate: '12/39', cvv: '123', postalCode: '94107' },
    });
    const tokenized = (await response.json()) as { nonce: string; details: { cardType: string; lastFour: string } };
    const card = await gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: tokenized.nonce });
    const again = await declineOf(gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: tokenized.nonce }));

    // Assess
    expect(response.status).toBe(201);
    expect(tokenized.nonce).toMatch(/^tokencc_/);
    expect(tokenized.details).toEqual({ cardType: 'Visa', lastFour: '1111' });
    expect(card).toMatchObject({ cardType: 'Visa', last4: '1111', expirationDate: '12/2039' });
    expect(again.reason).toBe('consumed_nonce');
  });

  it("vaults nothing for Braintree's declining test card; the local declining card takes one charge, then declines", async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    await gateway.ensureCustomer({ id: 'customer-1', email: 'buyer@example.com' });
    const clientToken = await gateway.clientToken('customer-1');
    const nonceFor = async (number: string) =>
      (
        (await (
          await tokenizeRequest(server, clientToken, { creditCard: { number, expirationDate: '01/40', cvv: '123' } })
        ).json()) as { nonce: string }
      ).nonce;

    // Act
    const declined = await declineOf(
      gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: await nonceFor('4000111111111115') }),
    );
    const decliningLater = await gateway.vaultPaymentMethod({
      customerId: 'customer-1',
      nonce: await nonceFor('4000000000000341'),
    });
    const firstCharge = await gateway.sale({ amount: '9.00', paymentMethodToken: decliningLater.token, orderId: 'order-1' });
    const laterCharge = await declineOf(
      gateway.sale({ amount: '9.00', paymentMethodToken: decliningLater.token, orderId: 'order-2' }),
    );

    // Assess
    expect(declined.reason).toBe('processor_declined');
    expect(decliningLater.last4).toBe('0341');
    expect(firstCharge.status).toBe('submitted_for_settlement');
    expect(laterCharge.reason).toBe('processor_declined');
  });

  it('answers 422 with a message per field for a bad number, a past expiry and a short Amex CVV', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    await gateway.ensureCustomer({ id: 'customer-1', email: 'buyer@example.com' });
    const clientToken = await gateway.clientToken('customer-1');

    // Act
    const badNumber = await tokenizeRequest(server, clientToken, {
      creditCard: { number: '4111111111111112', expirationDate: '01/20', cvv: '12' },
    });
    const amex = await tokenizeRequest(server, clientToken, {
      creditCard: { number: '378282246310005', expirationDate: '13/40', cvv: '123' },
    });

    // Assess
    expect(badNumber.status).toBe(422);
    expect(((await badNumber.json()) as { fieldErrors: { field: string; message: string }[] }).fieldErrors).toEqual([
      { field: 'number', message: 'This card number is not valid: check it for typos.' },
      { field: 'expirationDate', message: 'This card has expired.' },
      { field: 'cvv', message: 'Enter the 3-digit security code on the back of the card.' },
    ]);
    expect(((await amex.json()) as { fieldErrors: { field: string }[] }).fieldErrors.map((error) => error.field)).toEqual([
      'expirationDate',
      'cvv',
    ]);
  });

  it('answers CORS to the allowed origin only, preflight included', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    await gateway.ensureCustomer({ id: 'customer-1', email: 'buyer@example.com' });
    const clientToken = await gateway.clientToken('customer-1');
    const tokenizeUrl = decodeLocalClientToken(clientToken)?.tokenizeUrl ?? '';
    const preflight = (origin: string) =>
      fetch(tokenizeUrl, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });

    // Act
    const allowedPreflight = await preflight(ALLOWED_ORIGIN);
    const otherPreflight = await preflight('https://evil.example');
    const allowedPost = await tokenizeRequest(server, clientToken, { testNonce: 'fake-valid-visa-nonce' }, ALLOWED_ORIGIN);
    const otherPost = await tokenizeRequest(server, clientToken, { testNonce: 'fake-valid-visa-nonce' }, 'https://evil.example');

    // Assess
    expect(allowedPreflight.status).toBe(204);
    expect(allowedPreflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowedPreflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(otherPreflight.status).toBe(403);
    expect(otherPreflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(allowedPost.status).toBe(201);
    expect(allowedPost.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(await allowedPost.json()).toEqual({ nonce: 'fake-valid-visa-nonce', details: { cardType: 'Visa', lastFour: '1881' } });
    expect(otherPost.status).toBe(403);
    expect(otherPost.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a client token after 24 hours and a card nonce after 3 hours, by the gateway clock', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    await gateway.ensureCustomer({ id: 'customer-1', email: 'buyer@example.com' });
    const clientToken = await gateway.clientToken('customer-1');
    const card = { creditCard: { number: '5555555555554444', expirationDate: '01/40', cvv: '123' } };
    const { nonce } = (await (await tokenizeRequest(server, clientToken, card)).json()) as { nonce: string };

    // Act
    await advanceClock(server, { advanceSeconds: 3 * 3_600 + 1 });
    const staleNonce = await declineOf(gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce }));
    await advanceClock(server, { advanceDays: 1 });
    const staleToken = await tokenizeRequest(server, clientToken, card);

    // Assess
    expect(staleNonce.reason).toBe('invalid_nonce');
    expect(staleToken.status).toBe(401);
  });
});

describe('local payment gateway: subscriptions', () => {
  it('charges the first cycle at once and sends went_active and charged_successfully', async () => {
    // Prepare
    const { gateway, server, receiver } = await startGateway();
    const card = await customerWithCard(gateway);
    const { today } = (await control(server, 'GET', '/__control/clock')).body as { today: string };

    // Act
    const subscription = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
      addOns: [{ id: 'extra-seat', amount: '2.50', quantity: 2 }],
    });

    // Assess
    expect(subscription).toMatchObject({
      id: 'sub-1',
      status: 'Active',
      price: '9.00',
      currency: 'USD',
      billingPeriodStartDate: today,
      currentBillingCycle: 1,
      billingFrequency: 1,
      failureCount: 0,
      balance: '0.00',
      daysPastDue: 0,
      addOns: [{ id: 'extra-seat', amount: '2.50', quantity: 2 }],
    });
    expect(subscription.transactions).toEqual([expect.objectContaining({ amount: '14.00', status: 'submitted_for_settlement' })]);
    const next = new Date(Date.parse(subscription.nextBillingDate ?? ''));
    expect(next.getUTCMonth()).toBe((new Date(Date.parse(today)).getUTCMonth() + 1) % 12);
    expect(Date.parse(subscription.paidThroughDate ?? '')).toBe(next.getTime() - DAY_MS);
    expect(subscription.billingPeriodEndDate).toBe(subscription.paidThroughDate);
    await waitFor(() => receiver.received.length === 2, 'two webhooks');
    expect(await receivedKinds(gateway, receiver)).toEqual([
      'subscription_went_active sub-1',
      'subscription_charged_successfully sub-1',
    ]);
  });

  it('settles its webhooks on request: answers once those a request sent after its answer were delivered, retries included', async () => {
    // Prepare: the first delivery is refused, so it is retried.
    const { gateway, server, receiver } = await startGateway({ retryDelaysMs: [100] });
    const card = await customerWithCard(gateway);
    receiver.answerNext(500);
    await gateway.createSubscription({ id: 'sub-settled', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });

    // Act
    const settled = await control(server, 'POST', '/__control/webhooks/settle');

    // Assess: both webhooks are in by the time it answers, with no waiting on the test's side.
    expect(settled).toMatchObject({ status: 200, body: { settled: true } });
    expect(await receivedKinds(gateway, receiver)).toEqual([
      'subscription_went_active sub-settled',
      'subscription_charged_successfully sub-settled',
    ]);
  });

  it('holds its webhooks until released, then sends them in order, as Braintree sends them when it gets to them', async () => {
    // Prepare
    const { gateway, server, receiver } = await startGateway();
    const card = await customerWithCard(gateway);
    const held = await control(server, 'POST', '/__control/webhooks/hold');

    // Act
    await gateway.createSubscription({ id: 'sub-held', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });
    // Time enough for a webhook that was not held to arrive (a few milliseconds here).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const whileHeld = receiver.received.length;
    const released = await control(server, 'POST', '/__control/webhooks/release');
    const settled = await control(server, 'POST', '/__control/webhooks/settle');

    // Assess
    expect(held).toMatchObject({ status: 200, body: { held: true } });
    expect(whileHeld).toBe(0);
    expect(released).toMatchObject({ status: 200, body: { held: false } });
    expect(settled.status).toBe(200);
    expect(await receivedKinds(gateway, receiver)).toEqual([
      'subscription_went_active sub-held',
      'subscription_charged_successfully sub-held',
    ]);
  });

  it('keeps no subscription when the first charge is declined', async () => {
    // Prepare
    const { gateway } = await startGateway();
    const card = await customerWithCard(gateway);

    // Act
    const declined = await declineOf(
      gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '2046.00' }),
    );

    // Assess
    expect(declined.reason).toBe('processor_declined');
    expect(declined.details.processorResponseText).toBe('Declined');
    await expect(gateway.findSubscription('sub-1')).rejects.toBeInstanceOf(PaymentRecordNotFound);
  });

  it('refuses a second subscription with the same id: SubscriptionIdTaken', async () => {
    // Prepare
    const { gateway } = await startGateway();
    const card = await customerWithCard(gateway);
    const request = { id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' };
    await gateway.createSubscription(request);

    // Act
    const repeated = gateway.createSubscription(request);

    // Assess
    await expect(repeated).rejects.toBeInstanceOf(SubscriptionIdTaken);
    expect((await gateway.findSubscription('sub-1')).transactions).toHaveLength(1);
  });

  it('charges the next cycle when the clock reaches it, and its webhook verifies', async () => {
    // Prepare
    const { gateway, server, receiver } = await startGateway();
    const card = await customerWithCard(gateway);
    const created = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
    });
    await waitFor(() => receiver.received.length === 2, 'the creation webhooks');

    // Act
    const moved = await advanceClock(server, { advanceDays: await daysUntil(server, created.nextBillingDate ?? '') });
    const renewed = await gateway.findSubscription('sub-1');

    // Assess
    expect(moved.events.map((event) => event.kind)).toEqual(['subscription_charged_successfully']);
    expect(moved.deliveries).toEqual([
      expect.objectContaining({ kind: 'subscription_charged_successfully', delivered: true, attempts: 1 }),
    ]);
    expect(renewed).toMatchObject({ status: 'Active', currentBillingCycle: 2, billingPeriodStartDate: created.nextBillingDate });
    expect(renewed.transactions).toHaveLength(2);
    expect(renewed.transactions[0]?.createdAt.localeCompare(renewed.transactions[1]?.createdAt ?? '')).toBe(1);
    expect(renewed.updatedAt > created.updatedAt).toBe(true);
    expect(renewed.paidThroughDate).toBe(renewed.billingPeriodEndDate);
    const webhook = await gateway.parseWebhook(receiver.received[2] ?? { signature: '', payload: '' });
    expect(webhook).toMatchObject({ kind: 'subscription_charged_successfully', subscriptionId: 'sub-1' });
    expect(Date.parse(webhook.timestamp)).toBeGreaterThan(Date.parse(created.updatedAt));
  });

  it('takes a one-cycle discount off the first charge only, and a never-expiring one off every charge', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    const card = await customerWithCard(gateway);

    // Act
    const once = await gateway.createSubscription({
      id: 'sub-once',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
      discounts: [{ id: 'penpay-discount-code', amount: '4.50', numberOfBillingCycles: 1 }],
    });
    const always = await gateway.createSubscription({
      id: 'sub-always',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
      discounts: [{ id: 'penpay-discount-code', amount: '1.00', numberOfBillingCycles: null }],
    });
    await advanceClock(server, { advanceDays: await daysUntil(server, once.nextBillingDate ?? '') });
    const [onceRenewed, alwaysRenewed] = await Promise.all([
      gateway.findSubscription('sub-once'),
      gateway.findSubscription('sub-always'),
    ]);

    // Assess: the charged amount is the price less the discounts still applying
    expect(once.transactions.map((transaction) => transaction.amount)).toEqual(['4.50']);
    expect(onceRenewed.transactions.map((transaction) => transaction.amount)).toEqual(['9.00', '4.50']);
    expect(onceRenewed.discounts).toBeUndefined();
    expect(always.price).toBe('9.00');
    expect(alwaysRenewed.transactions.map((transaction) => transaction.amount)).toEqual(['8.00', '8.00']);
    expect(alwaysRenewed.discounts).toEqual([{ id: 'penpay-discount-code', amount: '1.00', numberOfBillingCycles: null }]);
  });

  it('goes Past Due when a later charge is declined, then Active again on a retry', async () => {
    // Prepare
    const { gateway, server, receiver } = await startGateway();
    const card = await customerWithCard(gateway);
    const created = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
    });
    await waitFor(() => receiver.received.length === 2, 'the creation webhooks');
    const decline = await control(server, 'POST', `/__control/payment-methods/${card.token}/decline`, { declining: true });

    // Act
    const moved = await advanceClock(server, { advanceDays: (await daysUntil(server, created.nextBillingDate ?? '')) + 3 });
    const pastDue = await gateway.findSubscription('sub-1');
    const retryWhileDeclining = await declineOf(gateway.retrySubscriptionCharge('sub-1'));
    await control(server, 'POST', `/__control/payment-methods/${card.token}/decline`, { declining: false });
    const retried = await gateway.retrySubscriptionCharge('sub-1');
    const active = await gateway.findSubscription('sub-1');

    // Assess
    expect(decline).toEqual({ status: 200, body: { token: card.token, merchantId: 'local-merchant', declining: true } });
    expect(moved.events.map((event) => event.kind)).toEqual([
      'subscription_charged_unsuccessfully',
      'subscription_went_past_due',
    ]);
    expect(pastDue).toMatchObject({
      status: 'Past Due',
      failureCount: 1,
      balance: '9.00',
      daysPastDue: 3,
      paidThroughDate: created.paidThroughDate,
    });
    expect(pastDue.transactions[0]).toMatchObject({ status: 'processor_declined', processorResponseText: 'Do Not Honor' });
    expect(retryWhileDeclining.reason).toBe('processor_declined');
    expect(retried).toMatchObject({ status: 'submitted_for_settlement', amount: '9.00' });
    expect(active).toMatchObject({ status: 'Active', balance: '0.00', failureCount: 0, daysPastDue: 0 });
    expect(active.paidThroughDate).toBe(active.billingPeriodEndDate);
    await waitFor(() => receiver.received.length === 5, 'the went_active webhook');
    expect((await receivedKinds(gateway, receiver)).slice(2)).toEqual([
      'subscription_charged_unsuccessfully sub-1',
      'subscription_went_past_due sub-1',
      'subscription_went_active sub-1',
    ]);
  });

  it('subscribes with the local declines-later nonce, then its renewal is declined', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    const card = await customerWithCard(gateway, 'local-declines-later-visa-nonce');

    // Act
    const created = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
    });
    const moved = await advanceClock(server, { advanceDays: await daysUntil(server, created.nextBillingDate ?? '') });

    // Assess
    expect(created.status).toBe('Active');
    expect(moved.events.map((event) => event.kind)).toEqual([
      'subscription_charged_unsuccessfully',
      'subscription_went_past_due',
    ]);
    expect((await gateway.findSubscription('sub-1')).status).toBe('Past Due');
  });

  it('stops billing once canceled; a second cancel answers the canceled subscription', async () => {
    // Prepare
    const { gateway, server, receiver } = await startGateway();
    const card = await customerWithCard(gateway);
    await gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });

    // Act
    const canceled = await gateway.cancelSubscription('sub-1');
    const again = await gateway.cancelSubscription('sub-1');
    const moved = await advanceClock(server, { advanceDays: 70 });

    // Assess
    expect(canceled).toMatchObject({ status: 'Canceled', nextBillingDate: null });
    expect(again).toEqual(canceled);
    expect(moved.events).toEqual([]);
    expect((await gateway.findSubscription('sub-1')).transactions).toHaveLength(1);
    await waitFor(() => receiver.received.length === 3, 'the canceled webhook');
    expect((await receivedKinds(gateway, receiver))[2]).toBe('subscription_canceled sub-1');
    await expect(gateway.updateSubscription('sub-1', { price: '1.00' })).rejects.toThrow(/81901/);
  });

  it("expires after the plan's number of cycles", async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    const card = await customerWithCard(gateway);
    await gateway.createSubscription({ id: 'sub-1', planId: 'pro-two-cycles', paymentMethodToken: card.token, price: '5.00' });

    // Act
    const moved = await advanceClock(server, { advanceDays: 70 });

    // Assess
    expect(moved.events.map((event) => event.kind)).toEqual(['subscription_charged_successfully', 'subscription_expired']);
    expect(await gateway.findSubscription('sub-1')).toMatchObject({
      status: 'Expired',
      currentBillingCycle: 2,
      nextBillingDate: null,
    });
  });

  it('bills the new price and add-ons from the next cycle after an update', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    const card = await customerWithCard(gateway);
    const other = await gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: 'fake-valid-mastercard-nonce' });
    const created = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
      addOns: [{ id: 'storage', amount: '1.00', quantity: 1 }],
    });

    // Act
    const updated = await gateway.updateSubscription('sub-1', {
      paymentMethodToken: other.token,
      price: '19.00',
      addOns: [{ id: 'extra-seat', amount: '3.00', quantity: 2 }],
      removeAddOns: ['storage'],
    });
    const moved = await advanceClock(server, { advanceDays: await daysUntil(server, created.nextBillingDate ?? '') });

    // Assess
    expect(updated).toMatchObject({
      price: '19.00',
      paymentMethodToken: other.token,
      addOns: [{ id: 'extra-seat', amount: '3.00', quantity: 2 }],
    });
    expect(updated.transactions).toHaveLength(1);
    expect(updated.updatedAt > created.updatedAt).toBe(true);
    expect(moved.events[0]?.transaction).toEqual({ id: expect.any(String), amount: '25.00', status: 'submitted_for_settlement' });
  });

  it('keeps subscriptions and the clock across a restart', async () => {
    // Prepare
    const receiver = await startWebhookReceiver();
    cleanups.push(receiver.close);
    const first = await startGateway({ receiver });
    const card = await customerWithCard(first.gateway);
    await first.gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });
    await advanceClock(first.server, { advanceDays: 2 });
    const before = await first.gateway.findSubscription('sub-1');
    const clockBefore = (await control(first.server, 'GET', '/__control/clock')).body as { offsetSeconds: number };

    // Act
    await first.server.stop();
    const second = await startGateway({ receiver, dataDir: first.dataDir });
    const after = await second.gateway.findSubscription('sub-1');
    const clockAfter = (await control(second.server, 'GET', '/__control/clock')).body as { offsetSeconds: number };

    // Assess
    expect(second.server.endpoint).not.toBe(first.server.endpoint);
    expect(after).toEqual(before);
    expect(clockAfter.offsetSeconds).toBe(clockBefore.offsetSeconds);
    expect(clockAfter.offsetSeconds).toBe(2 * 86_400);
  });
});

describe('local payment gateway: webhooks', () => {
  it('refuses a tampered payload and a signature made with another key: InvalidWebhookSignature', async () => {
    // Prepare
    const { gateway, receiver } = await startGateway();
    const card = await customerWithCard(gateway);
    await gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });
    await waitFor(() => receiver.received.length === 2, 'the creation webhooks');
    const genuine = receiver.received[0] ?? { signature: '', payload: '' };
    const tampered = {
      signature: genuine.signature,
      payload: genuine.payload.replace(/^./, (first) => (first === 'P' ? 'Q' : 'P')),
    };
    const otherKey = createLocalPaymentGateway('http://127.0.0.1:9', {
      ...LOCAL_GATEWAY_KEYS,
      privateKey: 'another-private-key',
    });

    // Act
    const parsedGenuine = await gateway.parseWebhook(genuine);
    const parsedTampered = gateway.parseWebhook(tampered);
    const parsedWithOtherKey = otherKey.parseWebhook(genuine);

    // Assess
    expect(parsedGenuine.kind).toBe('subscription_went_active');
    await expect(parsedTampered).rejects.toBeInstanceOf(InvalidWebhookSignature);
    await expect(parsedWithOtherKey).rejects.toBeInstanceOf(InvalidWebhookSignature);
  });

  it('retries a webhook the receiver failed, and gives up (logged) after the last retry', async () => {
    // Prepare
    const { gateway, server, receiver, logged } = await startGateway({ retryDelaysMs: [10, 10] });
    const card = await customerWithCard(gateway);
    const created = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
    });
    await waitFor(() => receiver.received.length === 2, 'the creation webhooks');
    const days = await daysUntil(server, created.nextBillingDate ?? '');

    // Act
    receiver.answerNext(500);
    const retried = await advanceClock(server, { advanceDays: days });
    receiver.answerNext(500, 502, 503);
    await control(server, 'POST', `/__control/payment-methods/${card.token}/decline`, { declining: true });
    const dropped = await advanceClock(server, { advanceDays: 31 });

    // Assess
    expect(retried.deliveries).toEqual([
      expect.objectContaining({ kind: 'subscription_charged_successfully', delivered: true, attempts: 2 }),
    ]);
    expect(dropped.deliveries).toEqual([
      expect.objectContaining({ kind: 'subscription_charged_unsuccessfully', delivered: false, attempts: 3 }),
      expect.objectContaining({ kind: 'subscription_went_past_due', delivered: true, attempts: 1 }),
    ]);
    expect(logged.some((line) => line.includes('gave up on the subscription_charged_unsuccessfully webhook'))).toBe(true);
  });
});

describe('local payment gateway: access and failures', () => {
  it('answers 401 to wrong keys; the adapter reports a configuration error, not an outage', async () => {
    // Prepare
    const { server } = await startGateway();
    const wrongKeys = createLocalPaymentGateway(server.endpoint, { ...LOCAL_GATEWAY_KEYS, privateKey: 'not-the-key' });

    // Act
    const raw = await fetch(`${server.endpoint}/merchants/local-merchant/subscriptions/sub-1`, {
      headers: { authorization: `Basic ${Buffer.from('local-public-key:wrong').toString('base64')}` },
    });
    const unauthenticated = await fetch(`${server.endpoint}/merchants/local-merchant/subscriptions/sub-1`);
    const viaAdapter = await wrongKeys.findSubscription('sub-1').catch((error: unknown) => error);

    // Assess
    expect(raw.status).toBe(401);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toContain('Basic');
    expect(viaAdapter).toBeInstanceOf(Error);
    expect(viaAdapter).not.toBeInstanceOf(PaymentGatewayUnavailable);
    expect((viaAdapter as Error).message).toContain('refused our keys (401)');
  });

  it("keeps each merchant's records its own: another merchant's keys get 403", async () => {
    // Prepare
    const { server, gateway, receiver } = await startGateway();
    const created = await control(server, 'POST', '/__control/merchants', { merchantId: 'storefront', webhookUrl: receiver.url });
    const keys = created.body as { merchantId: string; publicKey: string; privateKey: string };
    const storefront = createLocalPaymentGateway(server.endpoint, keys);

    // Act
    const card = await customerWithCard(storefront, 'fake-valid-amex-nonce', 'shopper-1');
    const crossed = await fetch(`${server.endpoint}/merchants/local-merchant/customers/shopper-1`, {
      headers: { authorization: `Basic ${Buffer.from(`${keys.publicKey}:${keys.privateKey}`).toString('base64')}` },
    });
    const repeated = await control(server, 'POST', '/__control/merchants', {
      merchantId: 'storefront',
      webhookUrl: receiver.url,
    });

    // Assess
    expect(created.status).toBe(201);
    expect(card).toMatchObject({ cardType: 'American Express', last4: '0005' });
    expect(crossed.status).toBe(403);
    await expect(gateway.sale({ amount: '1.00', paymentMethodToken: card.token, orderId: 'o' })).rejects.toThrow(/91518/);
    expect(repeated.status).toBe(409);
  });

  it('is PaymentGatewayUnavailable once stopped', async () => {
    // Prepare
    const { server, gateway } = await startGateway();
    await server.stop();

    // Act
    const outcome = gateway.findSubscription('sub-1');

    // Assess
    await expect(outcome).rejects.toBeInstanceOf(PaymentGatewayUnavailable);
    await expect(outcome).rejects.toMatchObject({ statusCode: 503, details: { retryAfterSeconds: 30 } });
  });

  it('answers malformed requests with 4xx and keeps serving', async () => {
    // Prepare
    const { server, gateway } = await startGateway();
    const authorization = `Basic ${Buffer.from(`${LOCAL_GATEWAY_KEYS.publicKey}:${LOCAL_GATEWAY_KEYS.privateKey}`).toString('base64')}`;
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`${server.endpoint}${path}`, {
        ...init,
        headers: { authorization, 'content-type': 'application/json', ...init.headers },
      });

    // Act
    const statuses = [
      (await send('/merchants/local-merchant/subscriptions', { method: 'POST', body: '{not json' })).status,
      (await send('/merchants/local-merchant/subscriptions', { method: 'POST', body: '[1,2]' })).status,
      (await send('/merchants/local-merchant/subscriptions', { method: 'POST', body: JSON.stringify({ id: 5, planId: null }) }))
        .status,
      (await send('/merchants/local-merchant/subscriptions/%E0%A4%A')).status,
      (await send('/merchants/local-merchant/nothing-here')).status,
      (
        await send('/merchants/local-merchant/transactions', {
          method: 'POST',
          body: JSON.stringify({ amount: '-1', paymentMethodToken: 'x' }),
        })
      ).status,
      (
        await send('/merchants/local-merchant/customers', {
          method: 'POST',
          body: JSON.stringify({ id: 'new', email: 'a@example.com' }),
        })
      ).status,
      (await send('/merchants/local-merchant/customers', { method: 'POST', body: 'x'.repeat(70_000) })).status,
      (await control(server, 'POST', '/__control/clock', { advanceDays: -1 })).status,
      (await control(server, 'POST', '/__control/clock', { advanceDays: 'soon' })).status,
      (await control(server, 'POST', '/__control/payment-methods/nope/decline', { declining: true })).status,
      (await control(server, 'POST', '/__control/merchants', { webhookUrl: 'ftp://example.com' })).status,
    ];
    await gateway.ensureCustomer({ id: 'customer-1', email: 'still@example.com' });

    // Assess
    expect(statuses).toEqual([400, 400, 422, 400, 404, 422, 422, 413, 400, 400, 404, 400]);
  });
});

/** The local merchant's keys as HTTP Basic, for requests the adapter does not make. */
const LOCAL_AUTHORIZATION = `Basic ${Buffer.from(`${LOCAL_GATEWAY_KEYS.publicKey}:${LOCAL_GATEWAY_KEYS.privateKey}`).toString('base64')}`;

describe('local payment gateway: plans and finding a sale by its order id', () => {
  it("lists the merchant's plans with their names and add-ons, two places to every amount", async () => {
    // Prepare
    const { gateway } = await startGateway();

    // Act
    const plans = await gateway.listPlans();

    // Assess
    expect(plans).toEqual([
      { id: 'pro-monthly', name: 'pro-monthly', price: '9.00', currency: 'USD', billingFrequency: 1, addOns: [] },
      { id: 'pro-two-cycles', name: 'pro-two-cycles', price: '5.00', currency: 'USD', billingFrequency: 1, addOns: [] },
      {
        id: 'team-quarterly',
        name: 'Team, quarterly',
        price: '30.00',
        currency: 'USD',
        billingFrequency: 3,
        addOns: [
          { id: 'extra-seat', name: 'Extra seat', amount: '2.00' },
          { id: 'priority-support', name: 'Priority support', amount: '5.00' },
        ],
      },
    ]);
  });

  it('gives a merchant made without plans the demo plans, in its currency', async () => {
    // Prepare
    const { server, receiver } = await startGateway();

    // Act
    const created = await control(server, 'POST', '/__control/merchants', { webhookUrl: receiver.url, currency: 'EUR' });
    const plans = await createLocalPaymentGateway(
      server.endpoint,
      created.body as { merchantId: string; publicKey: string; privateKey: string },
    ).listPlans();

    // Assess
    expect(created.status).toBe(201);
    expect(plans.map((plan) => [plan.id, plan.billingFrequency, plan.price, plan.currency])).toEqual([
      ['monthly', 1, '10.00', 'EUR'],
      ['quarterly', 3, '10.00', 'EUR'],
      ['yearly', 12, '10.00', 'EUR'],
    ]);
    expect(plans.map((plan) => plan.id)).toEqual(LOCAL_DEMO_PLANS.map((plan) => plan.id));
    for (const plan of plans) {
      expect(plan.addOns).toEqual([
        { id: 'extra-seat', name: 'Extra seat', amount: '2.00' },
        { id: 'priority-support', name: 'Priority support', amount: '5.00' },
      ]);
    }
  });

  it('refuses plans with a bad name or add-on as a 400, naming the plan', async () => {
    // Prepare
    const { server, receiver } = await startGateway();
    const plan = { id: 'p', billingFrequencyMonths: 1, price: '1.00', currency: 'USD' };

    // Act
    const answers = await Promise.all(
      [
        [{ ...plan, name: '' }],
        [{ ...plan, addOns: 'extra-seat' }],
        [{ ...plan, addOns: [{ id: 'seat', name: 'Seat', amount: '-1' }] }],
        [{ ...plan, addOns: [{ id: 'bad id', name: 'Seat', amount: '1.00' }] }],
        [
          {
            ...plan,
            addOns: [
              { id: 'seat', amount: '1.00' },
              { id: 'seat', amount: '2.00' },
            ],
          },
        ],
        [plan, plan],
      ].map((plans) => control(server, 'POST', '/__control/merchants', { webhookUrl: receiver.url, plans })),
    );

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(String(answers[2]?.body.message)).toContain('Plan p: add-on seat');
  });

  it('answers keys it does not know, or keys of another merchant, with GatewayCredentialsRejected', async () => {
    // Prepare
    const { server, receiver } = await startGateway();
    const other = (await control(server, 'POST', '/__control/merchants', { webhookUrl: receiver.url })).body as {
      publicKey: string;
      privateKey: string;
    };
    const wrongKey = createLocalPaymentGateway(server.endpoint, { ...LOCAL_GATEWAY_KEYS, privateKey: 'not-the-key' });
    const otherMerchantsKeys = createLocalPaymentGateway(server.endpoint, {
      merchantId: LOCAL_GATEWAY_KEYS.merchantId,
      publicKey: other.publicKey,
      privateKey: other.privateKey,
    });

    // Act
    const unknown = await wrongKey.listPlans().catch((error: unknown) => error);
    const foreign = await otherMerchantsKeys.listPlans().catch((error: unknown) => error);

    // Assess
    for (const error of [unknown, foreign]) {
      expect(error).toBeInstanceOf(GatewayCredentialsRejected);
      expect(error).toMatchObject({ statusCode: 400, code: 'GATEWAY_CREDENTIALS_REJECTED' });
      expect((error as Error).message).not.toContain('not-the-key');
    }
  });

  it("finds an order's sale after a lost answer, the approved one over a declined attempt; null for another order", async () => {
    // Prepare
    const { gateway } = await startGateway();
    const card = await customerWithCard(gateway);
    await gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });
    await declineOf(gateway.sale({ amount: '2001.00', paymentMethodToken: card.token, orderId: 'order-1' }));
    const approved = await gateway.sale({ amount: '12.00', paymentMethodToken: card.token, orderId: 'order-1' });
    const declinedOnly = await gateway
      .sale({ amount: '2000.00', paymentMethodToken: card.token, orderId: 'order-2' })
      .catch(() => undefined);

    // Act
    const found = await gateway.findSaleByOrderId('order-1');
    const declined = await gateway.findSaleByOrderId('order-2');
    const none = await gateway.findSaleByOrderId('order-3');

    // Assess
    expect(found).toEqual(approved);
    expect(declinedOnly).toBeUndefined();
    expect(declined).toMatchObject({ status: 'processor_declined', amount: '2000.00', processorResponseText: 'Do Not Honor' });
    expect(none).toBeNull();
  });

  it('answers a search without an order id with a 400', async () => {
    // Prepare
    const { server } = await startGateway();

    // Act
    const answer = await fetch(`${server.endpoint}/merchants/local-merchant/transactions/advanced_search`, {
      method: 'POST',
      headers: { authorization: LOCAL_AUTHORIZATION, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'order-1' }),
    });

    // Assess
    expect(answer.status).toBe(400);
  });
});

describe('local payment gateway: proration, as Braintree prorates', () => {
  const cycle = (start: string, end: string, next: string) =>
    ({ billingPeriodStartDate: start, billingPeriodEndDate: end, nextBillingDate: next }) as StoredSubscription;

  it("computes the difference times the days left in the cycle over the cycle's days, to the cent", () => {
    // Assess: 30.00 to 60.00 on 10 June of a 1-30 June cycle (20 of 30 days left): 20.00;
    // 1,200.00 to 1,920.00 on 1 June of a calendar-year cycle (213 of 365 days left): 420.16.
    expect(proratedCents(cycle('2024-06-01', '2024-06-30', '2024-07-01'), 3_000, 6_000, '2024-06-10')).toBe(2_000);
    expect(proratedCents(cycle('2023-01-01', '2023-12-31', '2024-01-01'), 120_000, 192_000, '2023-06-01')).toBe(42_016);
    expect(proratedCents(cycle('2024-06-01', '2024-06-30', '2024-07-01'), 6_000, 3_000, '2024-06-10')).toBe(-2_000);
    expect(proratedCents(cycle('2024-06-01', '2024-06-30', '2024-07-01'), 3_000, 6_000, '2024-06-30')).toBe(0);
  });

  async function subscribedFor(days: number) {
    const started = await startGateway();
    const card = await customerWithCard(started.gateway);
    const created = await started.gateway.createSubscription({
      id: 'sub-1',
      planId: 'team-quarterly',
      paymentMethodToken: card.token,
      price: '30.00',
    });
    await advanceClock(started.server, { advanceDays: days });
    const { today } = (await control(started.server, 'GET', '/__control/clock')).body as { today: string };
    return { ...started, card, created, today };
  }

  const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

  it('charges the prorated difference for the rest of the cycle at once when the price and add-ons go up', async () => {
    // Prepare: a quarterly plan, 10 days into its first cycle
    const { gateway, server, created, today } = await subscribedFor(10);

    // Act: 30.00 a quarter becomes 45.00 and two extra seats (4.00): 19.00 more per cycle
    const updated = await gateway.updateSubscription('sub-1', {
      price: '45.00',
      addOns: [{ id: 'extra-seat', amount: '2.00', quantity: 2 }],
      prorateCharges: true,
    });
    const renewed = await advanceClock(server, { advanceDays: daysFrom(today, created.nextBillingDate ?? '') });

    // Assess
    const cycleDays = daysFrom(created.billingPeriodStartDate ?? '', created.nextBillingDate ?? '');
    const daysLeft = daysFrom(today, created.billingPeriodEndDate ?? '');
    const expectedCents = Math.round((1_900 * daysLeft) / cycleDays);
    expect(cycleDays).toBeGreaterThanOrEqual(89);
    expect(daysLeft).toBe(cycleDays - 11);
    expect(updated).toMatchObject({
      price: '45.00',
      balance: '0.00',
      status: 'Active',
      nextBillingDate: created.nextBillingDate,
    });
    expect(updated.transactions).toHaveLength(2);
    expect(updated.transactions[0]).toMatchObject({
      amount: `${Math.floor(expectedCents / 100)}.${String(expectedCents % 100).padStart(2, '0')}`,
      status: 'submitted_for_settlement',
    });
    // The first cycle's charge, settled since (a day after it was submitted, by the gateway's clock).
    expect(updated.transactions[1]).toEqual({ ...created.transactions[0], status: 'settled' });
    expect(renewed.events[0]?.transaction).toMatchObject({ amount: '49.00', status: 'submitted_for_settlement' });
  });

  it('leaves the subscription unchanged and answers the decline when the prorated charge is declined', async () => {
    // Prepare
    const { gateway, server, card } = await subscribedFor(5);
    await control(server, 'POST', `/__control/payment-methods/${card.token}/decline`, { declining: true });
    const before = await gateway.findSubscription('sub-1');

    // Act
    const decline = await declineOf(gateway.updateSubscription('sub-1', { price: '60.00', prorateCharges: true }));
    const after = await gateway.findSubscription('sub-1');

    // Assess
    expect(decline).toMatchObject({ reason: 'processor_declined', statusCode: 402 });
    expect(decline.message).toContain('Do Not Honor');
    expect(after).toEqual(before);
  });

  it('keeps the change and puts the amount on the balance when asked not to revert (revertSubscriptionOnProrationFailure: false)', async () => {
    // Prepare
    const { gateway, server, card } = await subscribedFor(5);
    await control(server, 'POST', `/__control/payment-methods/${card.token}/decline`, { declining: true });

    // Act
    const answer = await fetch(`${server.endpoint}/merchants/local-merchant/subscriptions/sub-1`, {
      method: 'PUT',
      headers: { authorization: LOCAL_AUTHORIZATION, 'content-type': 'application/json' },
      body: JSON.stringify({ price: '60.00', options: { prorateCharges: true, revertSubscriptionOnProrationFailure: false } }),
    });
    const after = await gateway.findSubscription('sub-1');

    // Assess
    expect(answer.status).toBe(200);
    expect(after).toMatchObject({ price: '60.00', status: 'Active' });
    expect(after.transactions[0]).toMatchObject({ status: 'processor_declined', amount: after.balance });
    expect(Number(after.balance)).toBeGreaterThan(0);
  });

  it('credits the prorated difference to the balance when the price goes down, and the next charge uses it up', async () => {
    // Prepare
    const { gateway, server, created, today } = await subscribedFor(30);

    // Act
    const updated = await gateway.updateSubscription('sub-1', { price: '12.00', prorateCharges: true });
    const renewed = await advanceClock(server, { advanceDays: daysFrom(today, created.nextBillingDate ?? '') });
    const after = await gateway.findSubscription('sub-1');

    // Assess
    const cycleDays = daysFrom(created.billingPeriodStartDate ?? '', created.nextBillingDate ?? '');
    const creditCents = Math.round((1_800 * daysFrom(today, created.billingPeriodEndDate ?? '')) / cycleDays);
    expect(updated.transactions).toHaveLength(1);
    expect(updated.balance).toBe(`-${Math.floor(creditCents / 100)}.${String(creditCents % 100).padStart(2, '0')}`);
    const chargedCents = 1_200 - creditCents;
    expect(renewed.events[0]?.transaction).toMatchObject({
      amount: `${Math.floor(chargedCents / 100)}.${String(chargedCents % 100).padStart(2, '0')}`,
    });
    expect(after.balance).toBe('0.00');
  });

  it('changes nothing now without proration: the new price is billed from the next cycle', async () => {
    // Prepare
    const { gateway } = await subscribedFor(10);

    // Act
    const updated = await gateway.updateSubscription('sub-1', { price: '60.00', prorateCharges: false });

    // Assess
    expect(updated).toMatchObject({ price: '60.00', balance: '0.00' });
    expect(updated.transactions).toHaveLength(1);
  });
});

describe('local payment gateway: listings for reconciliation', () => {
  it("lists a window's sales, one-time and subscription charges, with their order or subscription, oldest first", async () => {
    // Prepare
    const { gateway } = await startGateway();
    const from = new Date().toISOString();
    const card = await customerWithCard(gateway);
    await gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });
    await declineOf(gateway.sale({ amount: '2001.00', paymentMethodToken: card.token, orderId: 'order-1' }));
    const sale = await gateway.sale({ amount: '12.00', paymentMethodToken: card.token, orderId: 'order-1' });
    const to = new Date(Date.now() + 1_000).toISOString();

    // Act
    const listed = await gateway.listTransactions({ from, to });
    const before = await gateway.listTransactions({ from: '2020-01-01T00:00:00.000Z', to: from });

    // Assess
    expect(
      listed.map((transaction) => [transaction.status, transaction.amount, transaction.orderId, transaction.subscriptionId]),
    ).toEqual([
      ['submitted_for_settlement', '9.00', undefined, 'sub-1'],
      ['processor_declined', '2001.00', 'order-1', undefined],
      ['submitted_for_settlement', '12.00', 'order-1', undefined],
    ]);
    expect(listed[2]).toEqual({ ...sale, orderId: 'order-1' });
    expect(before).toEqual([]);
  });

  it('lists the subscriptions in the statuses asked for', async () => {
    // Prepare
    const { gateway } = await startGateway();
    const card = await customerWithCard(gateway);
    await gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });
    await gateway.createSubscription({ id: 'sub-2', planId: 'pro-monthly', paymentMethodToken: card.token, price: '9.00' });
    await gateway.cancelSubscription('sub-2');

    // Act
    const live = await gateway.listSubscriptions({ statuses: ['Pending', 'Active', 'Past Due'] });
    const canceled = await gateway.listSubscriptions({ statuses: ['Canceled'] });

    // Assess
    expect(live).toEqual([{ id: 'sub-1', planId: 'pro-monthly', status: 'Active', updatedAt: expect.any(String) }]);
    expect(canceled.map((subscription) => [subscription.id, subscription.status])).toEqual([['sub-2', 'Canceled']]);
  });

  it('answers a search with neither an order id nor a time range, or with statuses it does not know, with a 400', async () => {
    // Prepare
    const { server } = await startGateway();
    const search = (path: string, body: unknown) =>
      fetch(`${server.endpoint}/merchants/local-merchant/${path}/advanced_search`, {
        method: 'POST',
        headers: { authorization: LOCAL_AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // Act
    const answers = await Promise.all([
      search('transactions', { createdAt: { min: 'yesterday', max: '2026-01-01T00:00:00Z' } }),
      search('subscriptions', { status: ['Suspended'] }),
      search('subscriptions', {}),
    ]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
  });
});

describe('local payment gateway: refunds and voids, as Braintree allows them', () => {
  async function refusalOf(work: Promise<unknown>): Promise<RefundRefused> {
    const error = await work.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RefundRefused);
    return error as RefundRefused;
  }

  it('voids a sale not settled yet, whole; refuses to refund it before it settles', async () => {
    // Prepare
    const { gateway } = await startGateway();
    const card = await customerWithCard(gateway);
    const sale = await gateway.sale({ amount: '30.00', paymentMethodToken: card.token, orderId: 'order-1' });

    // Act
    const early = await refusalOf(gateway.refundTransaction({ transactionId: sale.id, amount: '10.00', orderId: 'refund-1' }));
    const voided = await gateway.voidTransaction(sale.id);
    const again = await refusalOf(gateway.voidTransaction(sale.id));

    // Assess
    expect(early).toMatchObject({ statusCode: 409, details: { gatewayCode: '91506' } });
    expect(early.message).toContain('not settled yet');
    expect(voided).toMatchObject({ id: sale.id, status: 'voided' });
    expect(await gateway.findTransaction(sale.id)).toMatchObject({ status: 'voided' });
    expect(again.details).toMatchObject({ gatewayCode: '91504' });
    expect(await gateway.findRefundByOrderId('refund-1')).toBeNull();
  });

  it('settles a day after submission by its clock; then refunds in parts up to the sale, found again by order id', async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    const card = await customerWithCard(gateway);
    const sale = await gateway.sale({ amount: '30.00', paymentMethodToken: card.token, orderId: 'order-1' });
    await advanceClock(server, { advanceSeconds: 23 * 3600 });
    const notYet = await gateway.findTransaction(sale.id);
    await advanceClock(server, { advanceSeconds: 3600 });

    // Act
    const first = await gateway.refundTransaction({ transactionId: sale.id, amount: '10.00', orderId: 'refund-1' });
    const tooLarge = await refusalOf(gateway.refundTransaction({ transactionId: sale.id, amount: '20.01', orderId: 'refund-2' }));
    const rest = await gateway.refundTransaction({ transactionId: sale.id, amount: '20.00', orderId: 'refund-3' });
    const spent = await refusalOf(gateway.refundTransaction({ transactionId: sale.id, amount: '1.00', orderId: 'refund-4' }));
    const noVoid = await refusalOf(gateway.voidTransaction(sale.id));

    // Assess
    expect(notYet.status).toBe('submitted_for_settlement');
    expect(await gateway.findTransaction(sale.id)).toMatchObject({ status: 'settled' });
    expect(first).toMatchObject({ amount: '10.00', status: 'submitted_for_settlement' });
    expect(tooLarge.details).toMatchObject({ gatewayCode: '91521' });
    expect(rest).toMatchObject({ amount: '20.00' });
    expect(spent.details).toMatchObject({ gatewayCode: '91512' });
    expect(noVoid.message).toContain('refund it instead');
    expect(await gateway.findRefundByOrderId('refund-1')).toEqual({
      ...first,
      refundedTransactionId: sale.id,
      orderId: 'refund-1',
    });
    expect(await gateway.findRefundByOrderId('refund-2')).toBeNull();
    // A refund is no sale: the order's sale is still the one found, and the sales listing leaves
    // refunds out; the refunds listing has them, each with its sale and order id, oldest first.
    expect(await gateway.findSaleByOrderId('order-1')).toMatchObject({ id: sale.id });
    const everything = { from: new Date(0).toISOString(), to: new Date(Date.now() + 10 * DAY_MS).toISOString() };
    const listed = await gateway.listTransactions(everything);
    const refunds = await gateway.listRefunds(everything);
    const beforeTheRefunds = await gateway.listRefunds({ from: everything.from, to: first.createdAt });
    expect(listed.map((transaction) => transaction.id)).toEqual([sale.id]);
    const byOrderId = [...refunds].sort((a, b) => (a.orderId ?? '').localeCompare(b.orderId ?? ''));
    expect(byOrderId.map((credit) => [credit.id, credit.refundedTransactionId, credit.orderId, credit.amount])).toEqual([
      [first.id, sale.id, 'refund-1', '10.00'],
      [rest.id, sale.id, 'refund-3', '20.00'],
    ]);
    expect(beforeTheRefunds).toEqual([]);
  });

  it("refunds a subscription's settled charge; an unknown transaction is PaymentRecordNotFound", async () => {
    // Prepare
    const { gateway, server } = await startGateway();
    const card = await customerWithCard(gateway);
    const subscription = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: card.token,
      price: '9.00',
    });
    const [charge] = subscription.transactions;
    await advanceClock(server, { advanceDays: 1 });

    // Act
    const credit = await gateway.refundTransaction({ transactionId: charge?.id ?? '', amount: '9.00', orderId: 'refund-1' });
    const unknown = await gateway.findTransaction('nope1234').catch((error: unknown) => error);

    // Assess
    expect(credit).toMatchObject({ amount: '9.00' });
    expect(unknown).toBeInstanceOf(PaymentRecordNotFound);
  });
});
