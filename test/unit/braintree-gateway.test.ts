import braintree from 'braintree';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import type { BraintreeCredentials } from '../../functions/lib/payments/braintree-credentials';
import {
  type BraintreeSdk,
  createBraintreePaymentGateway,
  type SdkFailure,
  type SdkPlan,
  type SdkSubscription,
  type SdkSubscriptionSearch,
  type SdkTransaction,
  type SdkTransactionSearch,
} from '../../functions/lib/payments/braintree-gateway';
import {
  GatewayCredentialsRejected,
  InvalidWebhookSignature,
  PaymentDeclined,
  PaymentGatewayUnavailable,
  PaymentRecordNotFound,
  SubscriptionIdTaken,
  UnusableWebhook,
} from '../../functions/lib/payments/gateway';

const CREDENTIALS: BraintreeCredentials = {
  merchantId: 'merchant-1',
  publicKey: 'public-key-1',
  privateKey: 'private-key-1',
  environment: 'sandbox',
};

/** An SDK exception, as the SDK makes them: an Error whose type and name are the kind. */
const sdkError = (type: string, message = type) => Object.assign(new Error(message), { type, name: type });

function failure(
  parts: Partial<Omit<SdkFailure, 'success' | 'errors'>> & { errors?: { code: string; attribute?: string; message: string }[] },
): SdkFailure {
  const errors = parts.errors ?? [];
  return {
    ...parts,
    success: false,
    message: parts.message ?? errors.map((error) => error.message).join(' '),
    errors: { deepErrors: () => errors },
  };
}

const transaction = (overrides: Partial<SdkTransaction> = {}): SdkTransaction => ({
  id: 'txn-1',
  status: 'submitted_for_settlement',
  amount: '9',
  currencyIsoCode: 'EUR',
  createdAt: '2024-01-31T10:00:00Z',
  processorResponseCode: '1000',
  processorResponseText: 'Approved',
  ...overrides,
});

const subscription = (overrides: Partial<SdkSubscription> = {}): SdkSubscription => ({
  id: 'sub-1',
  planId: 'pro-monthly',
  status: 'Active',
  price: '9.00',
  paymentMethodToken: 'card-1',
  billingPeriodStartDate: '2024-01-31',
  billingPeriodEndDate: '2024-02-28',
  paidThroughDate: '2024-02-28',
  nextBillingDate: '2024-02-29',
  currentBillingCycle: 1,
  failureCount: 0,
  balance: '0.00',
  daysPastDue: null,
  addOns: [{ id: 'seat', amount: '2.5', quantity: 2 }],
  transactions: [
    transaction({ id: 'older', createdAt: '2024-01-01T00:00:00Z' }),
    transaction({ id: 'newer', createdAt: '2024-01-31T10:00:00Z' }),
  ],
  updatedAt: '2024-01-31T10:00:01Z',
  ...overrides,
});

/** What the SDK's search answers: a stream of transactions (here an async iterable of them). */
async function* found(transactions: SdkTransaction[], failure?: Error): AsyncGenerator<SdkTransaction> {
  for (const item of transactions) yield await Promise.resolve(item);
  if (failure) throw failure;
}

/** What the SDK's subscription search answers: a stream of subscriptions. */
async function* foundSubscriptions(subscriptions: SdkSubscription[]): AsyncGenerator<SdkSubscription> {
  for (const item of subscriptions) yield await Promise.resolve(item);
}

/** A hand-made SDK gateway: every method a mock, answering success unless a test says otherwise. */
function fakeSdk() {
  const sdk = {
    customer: {
      find: vi.fn<BraintreeSdk['customer']['find']>(async () => ({ id: 'customer-1' })),
      create: vi.fn<BraintreeSdk['customer']['create']>(async () => ({ success: true as const, customer: {} })),
    },
    paymentMethod: {
      create: vi.fn<BraintreeSdk['paymentMethod']['create']>(async () => ({
        success: true as const,
        paymentMethod: { token: 'card-1', cardType: 'Visa', last4: '1111', expirationDate: '12/2030' },
      })),
    },
    transaction: {
      sale: vi.fn<BraintreeSdk['transaction']['sale']>(async () => ({ success: true as const, transaction: transaction() })),
      search: vi.fn<BraintreeSdk['transaction']['search']>(() => found([])),
      find: vi.fn<BraintreeSdk['transaction']['find']>(async () => transaction()),
      refund: vi.fn<BraintreeSdk['transaction']['refund']>(async () => ({ success: true as const, transaction: transaction() })),
      void: vi.fn<BraintreeSdk['transaction']['void']>(async () => ({ success: true as const, transaction: transaction() })),
    },
    subscription: {
      create: vi.fn<BraintreeSdk['subscription']['create']>(async () => ({
        success: true as const,
        subscription: subscription(),
      })),
      find: vi.fn<BraintreeSdk['subscription']['find']>(async () => subscription()),
      update: vi.fn<BraintreeSdk['subscription']['update']>(async () => ({
        success: true as const,
        subscription: subscription(),
      })),
      retryCharge: vi.fn<BraintreeSdk['subscription']['retryCharge']>(async () => ({
        success: true as const,
        transaction: transaction(),
      })),
      cancel: vi.fn<BraintreeSdk['subscription']['cancel']>(async () => ({
        success: true as const,
        subscription: subscription({ status: 'Canceled' }),
      })),
      search: vi.fn<BraintreeSdk['subscription']['search']>(() => foundSubscriptions([])),
    },
    plan: {
      find: vi.fn<BraintreeSdk['plan']['find']>(async () => ({ billingFrequency: 1 })),
      all: vi.fn<BraintreeSdk['plan']['all']>(async () => []),
    },
    clientToken: {
      generate: vi.fn<BraintreeSdk['clientToken']['generate']>(async () => ({
        success: true as const,
        clientToken: 'client-token-1',
      })),
    },
    webhookNotification: {
      parse: vi.fn<BraintreeSdk['webhookNotification']['parse']>(async () => ({
        kind: 'subscription_went_active',
        timestamp: '2024-01-31T10:00:00Z',
        subscription: { id: 'sub-1' },
      })),
    },
  } satisfies BraintreeSdk;
  return { sdk, gateway: createBraintreePaymentGateway(CREDENTIALS, sdk) };
}

async function caught(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('Braintree adapter: successes', () => {
  it('vaults a nonce verified and as the default card', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();

    // Act
    const card = await gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: 'nonce-1' });

    // Assess
    expect(gateway.environment).toBe('sandbox');
    expect(card).toEqual({ token: 'card-1', cardType: 'Visa', last4: '1111', expirationDate: '12/2030' });
    expect(sdk.paymentMethod.create).toHaveBeenCalledWith({
      customerId: 'customer-1',
      paymentMethodNonce: 'nonce-1',
      options: { verifyCard: true, makeDefault: true },
    });
  });

  it("passes Drop-in's device data on for Braintree's fraud checks", async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();

    // Act
    await gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: 'nonce-1', deviceData: '{"correlation_id":"abc"}' });

    // Assess
    expect(sdk.paymentMethod.create).toHaveBeenCalledWith({
      customerId: 'customer-1',
      paymentMethodNonce: 'nonce-1',
      deviceData: '{"correlation_id":"abc"}',
      options: { verifyCard: true, makeDefault: true },
    });
  });

  it('charges a sale submitted for settlement, with the amount in two places', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();

    // Act
    const sale = await gateway.sale({ amount: '9.00', paymentMethodToken: 'card-1', orderId: 'order-1' });

    // Assess
    expect(sdk.transaction.sale).toHaveBeenCalledWith({
      amount: '9.00',
      paymentMethodToken: 'card-1',
      orderId: 'order-1',
      options: { submitForSettlement: true },
    });
    expect(sale).toEqual({
      id: 'txn-1',
      status: 'submitted_for_settlement',
      amount: '9.00',
      currency: 'EUR',
      createdAt: '2024-01-31T10:00:00.000Z',
    });
  });

  it("creates a subscription with our id, price and add-ons only, mapped to the port's shape", async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();

    // Act
    const created = await gateway.createSubscription({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: 'card-1',
      price: '9.00',
      addOns: [{ id: 'seat', amount: '2.50', quantity: 2 }],
    });

    // Assess
    expect(sdk.subscription.create).toHaveBeenCalledWith({
      id: 'sub-1',
      planId: 'pro-monthly',
      paymentMethodToken: 'card-1',
      price: '9.00',
      addOns: { add: [{ inheritedFromId: 'seat', amount: '2.50', quantity: 2 }] },
      options: { doNotInheritAddOnsOrDiscounts: true },
    });
    expect(sdk.plan.find).toHaveBeenCalledWith('pro-monthly');
    expect(created).toEqual({
      id: 'sub-1',
      planId: 'pro-monthly',
      status: 'Active',
      price: '9.00',
      currency: 'EUR',
      paymentMethodToken: 'card-1',
      billingPeriodStartDate: '2024-01-31',
      billingPeriodEndDate: '2024-02-28',
      paidThroughDate: '2024-02-28',
      nextBillingDate: '2024-02-29',
      billingFrequency: 1,
      currentBillingCycle: 1,
      failureCount: 0,
      balance: '0.00',
      daysPastDue: 0,
      addOns: [{ id: 'seat', amount: '2.50', quantity: 2 }],
      transactions: [
        expect.objectContaining({ id: 'newer', amount: '9.00' }),
        expect.objectContaining({ id: 'older', createdAt: '2024-01-01T00:00:00.000Z' }),
      ],
      updatedAt: '2024-01-31T10:00:01.000Z',
    });
  });

  it('answers no next billing date once canceled, and asks the plan for its frequency once', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.find.mockResolvedValue(
      subscription({ status: 'Past Due', daysPastDue: 4, balance: '9.00', failureCount: 1 }),
    );

    // Act
    const canceled = await gateway.cancelSubscription('sub-1');
    const pastDue = await gateway.findSubscription('sub-1');

    // Assess
    expect(canceled).toMatchObject({ status: 'Canceled', nextBillingDate: null });
    expect(pastDue).toMatchObject({
      status: 'Past Due',
      daysPastDue: 4,
      balance: '9.00',
      failureCount: 1,
      nextBillingDate: '2024-02-29',
    });
    expect(sdk.plan.find).toHaveBeenCalledTimes(1);
  });

  it('splits add-on changes into add, update and remove as Braintree takes them', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();

    // Act
    await gateway.updateSubscription('sub-1', {
      price: '19.00',
      addOns: [
        { id: 'seat', amount: '3.00', quantity: 1 },
        { id: 'storage', amount: '1.00', quantity: 5 },
      ],
      removeAddOns: ['not-there'],
    });

    // Assess
    expect(sdk.subscription.update).toHaveBeenCalledWith('sub-1', {
      price: '19.00',
      addOns: {
        add: [{ inheritedFromId: 'storage', amount: '1.00', quantity: 5 }],
        update: [{ existingId: 'seat', amount: '3.00', quantity: 1 }],
        remove: [],
      },
    });
  });

  it('retries a past-due charge for its balance, submitted for settlement', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();

    // Act
    const retried = await gateway.retrySubscriptionCharge('sub-1');

    // Assess
    expect(sdk.subscription.retryCharge).toHaveBeenCalledWith('sub-1', undefined, true);
    expect(retried.status).toBe('submitted_for_settlement');
  });

  it('creates a missing customer with the name split in two, and leaves an existing one alone', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.customer.find.mockRejectedValueOnce(sdkError('notFoundError'));

    // Act
    await gateway.ensureCustomer({ id: 'customer-1', email: 'ada@example.com', name: 'Ada King Lovelace' });
    await gateway.ensureCustomer({ id: 'customer-1', email: 'ada@example.com' });

    // Assess
    expect(sdk.customer.create).toHaveBeenCalledTimes(1);
    expect(sdk.customer.create).toHaveBeenCalledWith({
      id: 'customer-1',
      email: 'ada@example.com',
      firstName: 'Ada King',
      lastName: 'Lovelace',
    });
  });

  it('takes a customer created meanwhile (91609) as created', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.customer.find.mockRejectedValueOnce(sdkError('notFoundError'));
    sdk.customer.create.mockResolvedValueOnce(
      failure({ errors: [{ code: '91609', attribute: 'id', message: 'Customer ID has already been taken.' }] }),
    );

    // Act
    const ensured = gateway.ensureCustomer({ id: 'customer-1', email: 'ada@example.com' });

    // Assess
    await expect(ensured).resolves.toBeUndefined();
  });

  it('reads a webhook the real SDK signed, offline', async () => {
    // Prepare
    const gateway = createBraintreePaymentGateway(CREDENTIALS);
    const signer = new braintree.BraintreeGateway({
      environment: braintree.Environment.Sandbox,
      merchantId: CREDENTIALS.merchantId,
      publicKey: CREDENTIALS.publicKey,
      privateKey: CREDENTIALS.privateKey,
    });
    const sample = await signer.webhookTesting.sampleNotification('subscription_went_past_due', 'sub-9');

    // Act
    const parsed = await gateway.parseWebhook({ signature: sample.bt_signature, payload: sample.bt_payload });

    // Assess
    expect(parsed).toMatchObject({ kind: 'subscription_went_past_due', subscriptionId: 'sub-9' });
    expect(parsed.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
  });
});

describe('Braintree adapter: failures', () => {
  it('maps a processor-declined sale to PaymentDeclined, in words for the buyer', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.sale.mockResolvedValueOnce(
      failure({
        message: 'Do Not Honor',
        transaction: transaction({
          status: 'processor_declined',
          processorResponseCode: '2000',
          processorResponseText: 'Do Not Honor',
        }),
      }),
    );

    // Act
    const error = await caught(gateway.sale({ amount: '2000.00', paymentMethodToken: 'card-1', orderId: 'order-1' }));

    // Assess
    expect(error).toBeInstanceOf(PaymentDeclined);
    expect(error).toMatchObject({
      statusCode: 402,
      reason: 'processor_declined',
      message: 'Your card was declined by your bank (Do Not Honor). Try another card.',
      details: { reason: 'processor_declined', processorResponseText: 'Do Not Honor' },
    });
  });

  it('maps a gateway-rejected sale to PaymentDeclined gateway_rejected', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.sale.mockResolvedValueOnce(
      failure({
        transaction: transaction({ status: 'gateway_rejected', gatewayRejectionReason: 'cvv', processorResponseCode: '' }),
      }),
    );

    // Act
    const error = await caught(gateway.sale({ amount: '5001.00', paymentMethodToken: 'card-1', orderId: 'order-1' }));

    // Assess
    expect(error).toBeInstanceOf(PaymentDeclined);
    expect(error).toMatchObject({ reason: 'gateway_rejected' });
    expect((error as Error).message).toContain('the security code did not match the card');
  });

  it('maps a verification declined while vaulting to PaymentDeclined processor_declined', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.paymentMethod.create.mockResolvedValueOnce(
      failure({
        verification: {
          status: 'processor_declined',
          processorResponseCode: '2001',
          processorResponseText: 'Insufficient Funds',
        },
      }),
    );

    // Act
    const error = await caught(gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: 'nonce-1' }));

    // Assess
    expect(error).toMatchObject({ reason: 'processor_declined', details: { processorResponseText: 'Insufficient Funds' } });
  });

  it.each([
    ['93107', 'consumed_nonce'],
    ['93108', 'invalid_nonce'],
    ['81715', 'invalid_card'],
  ])('maps the validation error %s on a vault to PaymentDeclined %s', async (code, reason) => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.paymentMethod.create.mockResolvedValueOnce(
      failure({ errors: [{ code, attribute: 'payment_method_nonce', message: 'refused' }] }),
    );

    // Act
    const error = await caught(gateway.vaultPaymentMethod({ customerId: 'customer-1', nonce: 'nonce-1' }));

    // Assess
    expect(error).toBeInstanceOf(PaymentDeclined);
    expect((error as PaymentDeclined).reason).toBe(reason);
  });

  it('maps "ID has already been taken" (81902) to SubscriptionIdTaken', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.create.mockResolvedValueOnce(
      failure({ errors: [{ code: '81902', attribute: 'id', message: 'ID has already been taken.' }] }),
    );

    // Act
    const error = await caught(
      gateway.createSubscription({ id: 'sub-1', planId: 'pro-monthly', paymentMethodToken: 'card-1', price: '9.00' }),
    );

    // Assess
    expect(error).toBeInstanceOf(SubscriptionIdTaken);
  });

  it("maps any other refusal to a plain error naming Braintree's codes (our request's fault)", async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.create.mockResolvedValueOnce(
      failure({ errors: [{ code: '91904', attribute: 'plan_id', message: 'Plan ID is invalid.' }] }),
    );

    // Act
    const error = await caught(
      gateway.createSubscription({ id: 'sub-1', planId: 'nope', paymentMethodToken: 'card-1', price: '9.00' }),
    );

    // Assess
    expect(error).not.toBeInstanceOf(PaymentDeclined);
    expect((error as Error).message).toBe('The payment gateway refused a subscription: 91904 Plan ID is invalid.');
  });

  it('maps notFoundError to PaymentRecordNotFound', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.find.mockRejectedValueOnce(sdkError('notFoundError', 'Not Found'));

    // Act
    const error = await caught(gateway.findSubscription('sub-404'));

    // Assess
    expect(error).toBeInstanceOf(PaymentRecordNotFound);
    expect((error as Error).message).toBe('Subscription sub-404 is not known to the payment gateway');
  });

  it.each([
    'unexpectedError',
    'serviceUnavailableError',
    'serverError',
    'gatewayTimeoutError',
    'requestTimeoutError',
    'tooManyRequestsError',
  ])('maps %s (a timeout or an outage) to PaymentGatewayUnavailable', async (type) => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.sale.mockRejectedValueOnce(sdkError(type, 'Request timed out'));

    // Act
    const error = await caught(gateway.sale({ amount: '9.00', paymentMethodToken: 'card-1', orderId: 'order-1' }));

    // Assess
    expect(error).toBeInstanceOf(PaymentGatewayUnavailable);
    expect(error).toMatchObject({ statusCode: 503, details: { retryAfterSeconds: 30 } });
  });

  it('maps a network error to PaymentGatewayUnavailable', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.clientToken.generate.mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));

    // Act
    const error = await caught(gateway.clientToken('customer-1'));

    // Assess
    expect(error).toBeInstanceOf(PaymentGatewayUnavailable);
  });

  it.each(['authenticationError', 'authorizationError'])('maps %s to a plain error (a 500: our keys are wrong)', async (type) => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.find.mockRejectedValueOnce(sdkError(type));

    // Act
    const error = await caught(gateway.findSubscription('sub-1'));

    // Assess
    expect(error).not.toBeInstanceOf(PaymentGatewayUnavailable);
    expect(error).not.toBeInstanceOf(PaymentRecordNotFound);
    expect((error as Error).message).toContain(`Braintree refused our credentials or SDK (${type})`);
  });

  it('answers the canceled subscription when it was canceled already (81905)', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.cancel.mockResolvedValueOnce(
      failure({ errors: [{ code: '81905', attribute: 'status', message: 'Subscription has already been canceled.' }] }),
    );
    sdk.subscription.find.mockResolvedValueOnce(subscription({ status: 'Canceled' }));

    // Act
    const canceled = await gateway.cancelSubscription('sub-1');

    // Assess
    expect(canceled.status).toBe('Canceled');
  });

  it('maps a signature that does not match to InvalidWebhookSignature', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.webhookNotification.parse.mockRejectedValueOnce(sdkError('invalidSignatureError', 'signature does not match payload'));

    // Act
    const error = await caught(gateway.parseWebhook({ signature: 'public-key-1|bad', payload: 'abc' }));

    // Assess
    expect(error).toBeInstanceOf(InvalidWebhookSignature);
    expect(error).toMatchObject({ statusCode: 401 });
  });

  it('maps a signed payload the SDK cannot read to UnusableWebhook, carrying the SDK error as its cause', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    const unreadable = new TypeError("Cannot read properties of undefined (reading 'map')");
    sdk.webhookNotification.parse.mockRejectedValueOnce(unreadable);

    // Act
    const error = await caught(gateway.parseWebhook({ signature: 'public-key-1|good', payload: 'abc' }));

    // Assess
    expect(error).toBeInstanceOf(UnusableWebhook);
    expect((error as Error).cause).toBe(unreadable);
  });

  it.each([
    ['no kind', { timestamp: new Date('2024-01-31T10:00:00Z') }],
    ['no timestamp', { kind: 'subscription_canceled' }],
    ['an invalid timestamp', { kind: 'subscription_canceled', timestamp: 'yesterday' }],
  ])('maps a notification with %s to UnusableWebhook instead of a RangeError', async (_, notification) => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.webhookNotification.parse.mockResolvedValueOnce(notification as never);

    // Act
    const error = await caught(gateway.parseWebhook({ signature: 'public-key-1|good', payload: 'abc' }));

    // Assess
    expect(error).toBeInstanceOf(UnusableWebhook);
  });
});

/** The SDK's own transaction search, to run the adapter's search builder against. */
const { TransactionSearch } = createRequire(import.meta.url)('braintree/lib/braintree/transaction_search') as {
  TransactionSearch: new () => SdkTransactionSearch & { toHash(): Record<string, unknown> };
};

describe('Braintree adapter: plans, sales by order id and proration', () => {
  const monthly: SdkPlan = {
    id: 'monthly',
    name: 'Monthly',
    price: '10',
    currencyIsoCode: 'EUR',
    billingFrequency: 1,
    addOns: [{ id: 'extra-seat', name: 'Extra seat', amount: '2' }],
  };

  it("lists the merchant's plans with their add-ons, and knows their cycles without asking again", async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.plan.all.mockResolvedValueOnce([monthly, { id: 'yearly', price: '100.00', billingFrequency: '12', addOns: null }]);
    sdk.subscription.find.mockResolvedValueOnce(subscription({ planId: 'yearly' }));

    // Act
    const plans = await gateway.listPlans();
    const yearly = await gateway.findSubscription('sub-1');

    // Assess
    expect(plans).toEqual([
      {
        id: 'monthly',
        name: 'Monthly',
        price: '10.00',
        currency: 'EUR',
        billingFrequency: 1,
        addOns: [{ id: 'extra-seat', name: 'Extra seat', amount: '2.00' }],
      },
      { id: 'yearly', name: 'yearly', price: '100.00', currency: 'USD', billingFrequency: 12, addOns: [] },
    ]);
    expect(yearly.billingFrequency).toBe(12);
    expect(sdk.plan.find).not.toHaveBeenCalled();
  });

  it.each(['authenticationError', 'authorizationError'])(
    'answers keys Braintree refuses (%s) with GatewayCredentialsRejected, a 400 a merchant understands',
    async (type) => {
      // Prepare
      const { sdk, gateway } = fakeSdk();
      sdk.plan.all.mockRejectedValueOnce(sdkError(type));

      // Act
      const error = await caught(gateway.listPlans());

      // Assess
      expect(error).toBeInstanceOf(GatewayCredentialsRejected);
      expect(error).toMatchObject({ statusCode: 400, code: 'GATEWAY_CREDENTIALS_REJECTED' });
      expect((error as Error).message).toMatch(/did not accept these keys.*sandbox keys, not production ones/);
      expect((error as Error).message).not.toContain(CREDENTIALS.privateKey);
    },
  );

  it('lists plans as unavailable, not as bad keys, when Braintree is down', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.plan.all.mockRejectedValueOnce(sdkError('serviceUnavailableError'));

    // Act
    const error = await caught(gateway.listPlans());

    // Assess
    expect(error).toBeInstanceOf(PaymentGatewayUnavailable);
  });

  it("finds an order's sale by its order id: the one that took the money, over a newer declined attempt", async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.search.mockImplementationOnce(() =>
      found([
        transaction({ id: 'paid', status: 'settled', createdAt: '2024-01-31T10:00:00Z' }),
        transaction({ id: 'declined', status: 'processor_declined', createdAt: '2024-01-31T10:05:00Z' }),
      ]),
    );

    // Act
    const sale = await gateway.findSaleByOrderId('order-7');
    const search = new TransactionSearch();
    sdk.transaction.search.mock.calls[0]?.[0](search);

    // Assess
    expect(sale).toMatchObject({ id: 'paid', status: 'settled', amount: '9.00' });
    expect(search.toHash()).toEqual({ orderId: { is: 'order-7' }, type: ['sale'] });
  });

  it('answers the newest attempt when none took the money, and null when there was no sale', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.search.mockImplementationOnce(() =>
      found([
        transaction({ id: 'first', status: 'processor_declined', createdAt: '2024-01-31T10:00:00Z' }),
        transaction({ id: 'second', status: 'gateway_rejected', createdAt: '2024-01-31T10:01:00Z' }),
      ]),
    );

    // Act
    const declined = await gateway.findSaleByOrderId('order-8');
    const none = await gateway.findSaleByOrderId('order-9');

    // Assess
    expect(declined?.id).toBe('second');
    expect(none).toBeNull();
  });

  it('maps a search that fails half-way (the stream errors) to PaymentGatewayUnavailable', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.search.mockImplementationOnce(() => found([transaction()], sdkError('unexpectedError', 'socket hang up')));

    // Act
    const error = await caught(gateway.findSaleByOrderId('order-1'));

    // Assess
    expect(error).toBeInstanceOf(PaymentGatewayUnavailable);
  });

  it('asks Braintree to prorate an update, reverting it if the prorated charge fails, and answers the prorated charge first', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    const prorated = transaction({ id: 'prorated', amount: '5.00', createdAt: '2024-02-14T09:00:00Z' });
    sdk.subscription.update.mockResolvedValueOnce({
      success: true,
      subscription: subscription({ price: '19.00', transactions: [...(subscription().transactions ?? []), prorated] }),
    });

    // Act
    const updated = await gateway.updateSubscription('sub-1', { price: '19.00', prorateCharges: true });
    await gateway.updateSubscription('sub-1', { price: '9.00', prorateCharges: false });
    await gateway.updateSubscription('sub-1', { price: '9.00' });

    // Assess
    expect(sdk.subscription.update.mock.calls.map(([, request]) => request)).toEqual([
      { price: '19.00', options: { prorateCharges: true, revertSubscriptionOnProrationFailure: true } },
      { price: '9.00', options: { prorateCharges: false } },
      { price: '9.00' },
    ]);
    expect(updated.transactions[0]).toMatchObject({ id: 'prorated', amount: '5.00' });
  });

  it('maps a declined prorated charge (the update reverted) to PaymentDeclined', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.update.mockResolvedValueOnce(
      failure({
        transaction: transaction({
          status: 'processor_declined',
          processorResponseCode: '2000',
          processorResponseText: 'Do Not Honor',
        }),
      }),
    );

    // Act
    const error = await caught(gateway.updateSubscription('sub-1', { price: '19.00', prorateCharges: true }));

    // Assess
    expect(error).toBeInstanceOf(PaymentDeclined);
    expect(error).toMatchObject({ reason: 'processor_declined', statusCode: 402 });
  });
});

/** The SDK's own subscription search, to run the adapter's search builder against. */
const { SubscriptionSearch } = createRequire(import.meta.url)('braintree/lib/braintree/subscription_search') as {
  SubscriptionSearch: new () => SdkSubscriptionSearch & { toHash(): Record<string, unknown> };
};

describe('Braintree adapter: listings for reconciliation', () => {
  const window = { from: '2024-01-31T10:00:30.000Z', to: '2024-02-01T10:00:00.000Z' };

  it("lists a window's sales with their order and subscription, asking from the window's first whole minute and cutting the answer to the window", async () => {
    // Prepare: Braintree counts whole minutes and takes in the minute after the upper bound.
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.search.mockImplementationOnce(() =>
      found([
        transaction({ id: 'renewal', createdAt: '2024-02-01T09:00:00Z', subscriptionId: 's_inv-1', orderId: null }),
        transaction({ id: 'too-early', createdAt: '2024-01-31T10:00:10Z' }),
        transaction({ id: 'sale', status: 'settled', createdAt: new Date('2024-01-31T10:00:30Z'), orderId: 'inv-2' }),
        transaction({
          id: 'declined',
          status: 'processor_declined',
          processorResponseText: 'Do Not Honor',
          createdAt: '2024-01-31T12:00:00Z',
        }),
        transaction({ id: 'too-late', createdAt: '2024-02-01T10:00:00Z' }),
      ]),
    );

    // Act
    const listed = await gateway.listTransactions(window);
    const search = new TransactionSearch();
    sdk.transaction.search.mock.calls[0]?.[0](search);

    // Assess
    expect(listed).toEqual([
      { id: 'sale', status: 'settled', amount: '9.00', currency: 'EUR', createdAt: '2024-01-31T10:00:30.000Z', orderId: 'inv-2' },
      {
        id: 'declined',
        status: 'processor_declined',
        amount: '9.00',
        currency: 'EUR',
        createdAt: '2024-01-31T12:00:00.000Z',
        processorResponseText: 'Do Not Honor',
      },
      {
        id: 'renewal',
        status: 'submitted_for_settlement',
        amount: '9.00',
        currency: 'EUR',
        createdAt: '2024-02-01T09:00:00.000Z',
        subscriptionId: 's_inv-1',
      },
    ]);
    expect(search.toHash()).toEqual({
      createdAt: { min: new Date('2024-01-31T10:00:00.000Z'), max: new Date('2024-02-01T10:00:00.000Z') },
      type: ['sale'],
    });
  });

  it("lists a window's refunds (credits) with their sale and order id, cut to the window", async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.search.mockImplementationOnce(() =>
      found([
        transaction({
          id: 'credit-1',
          type: 'credit',
          createdAt: '2024-01-31T11:00:00Z',
          refundedTransactionId: 'sale-1',
          orderId: 'sale-1_r1',
        }),
        transaction({ id: 'too-early', type: 'credit', createdAt: '2024-01-31T10:00:10Z', refundedTransactionId: 'sale-2' }),
      ]),
    );

    // Act
    const listed = await gateway.listRefunds(window);
    const search = new TransactionSearch();
    sdk.transaction.search.mock.calls[0]?.[0](search);

    // Assess
    expect(listed).toEqual([
      {
        id: 'credit-1',
        status: 'submitted_for_settlement',
        amount: '9.00',
        currency: 'EUR',
        createdAt: '2024-01-31T11:00:00.000Z',
        refundedTransactionId: 'sale-1',
        orderId: 'sale-1_r1',
      },
    ]);
    expect(search.toHash()).toEqual({
      createdAt: { min: new Date('2024-01-31T10:00:00.000Z'), max: new Date('2024-02-01T10:00:00.000Z') },
      type: ['credit'],
    });
  });

  it('maps a listing that fails half-way to PaymentGatewayUnavailable, and keys Braintree refuses to an error naming the secret', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.transaction.search.mockImplementationOnce(() => found([transaction()], sdkError('serviceUnavailableError')));
    sdk.subscription.search.mockImplementationOnce(() => {
      throw sdkError('authenticationError');
    });

    // Act
    const unavailable = await caught(gateway.listTransactions(window));
    const refused = await caught(gateway.listSubscriptions({ statuses: ['Active'] }));

    // Assess
    expect(unavailable).toBeInstanceOf(PaymentGatewayUnavailable);
    expect((refused as Error).message).toMatch(/check the Braintree secret/);
  });

  it('lists the subscriptions in the statuses asked for, without looking their plans up, and asks nothing for no status', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.search.mockImplementationOnce(() =>
      foundSubscriptions([
        subscription({ id: 'sub-1', status: 'Active' }),
        subscription({ id: 'sub-2', status: 'Past Due', planId: 'pro-yearly', updatedAt: new Date('2024-02-02T00:00:00Z') }),
      ]),
    );

    // Act
    const listed = await gateway.listSubscriptions({ statuses: ['Pending', 'Active', 'Past Due'] });
    const none = await gateway.listSubscriptions({ statuses: [] });
    const search = new SubscriptionSearch();
    sdk.subscription.search.mock.calls[0]?.[0](search);

    // Assess
    expect(listed).toEqual([
      { id: 'sub-1', planId: 'pro-monthly', status: 'Active', updatedAt: '2024-01-31T10:00:01.000Z' },
      { id: 'sub-2', planId: 'pro-yearly', status: 'Past Due', updatedAt: '2024-02-02T00:00:00.000Z' },
    ]);
    expect(none).toEqual([]);
    expect(sdk.subscription.search).toHaveBeenCalledTimes(1);
    expect(search.toHash()).toEqual({ status: ['Pending', 'Active', 'Past Due'] });
    expect(sdk.plan.find).not.toHaveBeenCalled();
  });

  it('refuses a subscription status the port does not know rather than guess', async () => {
    // Prepare
    const { sdk, gateway } = fakeSdk();
    sdk.subscription.search.mockImplementationOnce(() => foundSubscriptions([subscription({ status: 'Suspended' })]));

    // Act
    const error = await caught(gateway.listSubscriptions({ statuses: ['Active'] }));

    // Assess
    expect((error as Error).message).toMatch(/status the port does not know: Suspended/);
  });
});
