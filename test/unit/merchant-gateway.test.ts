import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAsFunction } from '../../functions/lib/function-environment';
import { GatewayCredentialsRejected, type PaymentGateway } from '../../functions/lib/payments/gateway';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import {
  createLocalGatewayAccount,
  gatewayForKeys,
  merchantPaymentGateway,
  useMerchantGatewayForTests,
} from '../../functions/lib/payments/merchant-gateway';
import { MerchantKeysUnreadable, sealMerchantKeys } from '../../functions/lib/payments/merchant-keys';
import { type LocalPaymentGateway, startLocalPaymentGateway } from '../../infra/local/payment-gateway';
import { ensureMerchantKeysKey } from '../../infra/local/runtime';
import { capabilitiesOf } from '../../shared/capabilities';
import { LOCAL_GATEWAY_KEYS } from '../../shared/payments/local-gateway';

const BASE_ENV = { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com' };
const OPEN = capabilitiesOf({ merchantKeys: 'open' }, { table: 'read-write' });

/** As a function in AWS: KMS, and no local gateway. */
const inAws = <T>(work: () => T): T =>
  runAsFunction(
    {
      name: 'store-in-aws',
      capabilities: OPEN,
      env: { ...BASE_ENV, STAGE: 'prod', MERCHANT_KEYS: 'kms', MERCHANT_KEYS_KMS_KEY_ARN: 'arn:aws:kms:eu-west-1:1:key/k' },
    },
    work,
  );

const caught = (work: () => Promise<unknown>) =>
  Promise.resolve()
    .then(work)
    .then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error,
    );

describe("a merchant's own gateway, in AWS", () => {
  it("makes a Braintree gateway with the merchant's keys for sandbox and production keys", () => {
    // Act
    const sandbox = inAws(() =>
      gatewayForKeys({ environment: 'sandbox', merchantId: 'm', publicKey: 'public', privateKey: 'private' }),
    );
    const production = inAws(() =>
      gatewayForKeys({ environment: 'production', merchantId: 'm', publicKey: 'public', privateKey: 'private' }),
    );

    // Assess
    expect(sandbox.environment).toBe('sandbox');
    expect(production.environment).toBe('production');
  });

  it("refuses keys of environment 'local' with a 400 that says why", async () => {
    // Act
    const local = await caught(async () =>
      inAws(() => gatewayForKeys({ environment: 'local', merchantId: 'm', publicKey: 'public', privateKey: 'private' })),
    );
    const account = await caught(() => inAws(() => createLocalGatewayAccount({ currency: 'USD', webhookUrl: 'https://x' })));

    // Assess
    for (const error of [local, account]) {
      expect(error).toMatchObject({ statusCode: 400, code: 'LOCAL_GATEWAY_UNAVAILABLE' });
      expect((error as Error).message).toMatch(/runs on one machine.*sandbox or production keys/);
    }
  });

  it('answers missing keys with a 400 naming the fields', async () => {
    // Act
    const error = await caught(async () =>
      inAws(() => gatewayForKeys({ environment: 'sandbox', merchantId: 'm', publicKey: '', privateKey: ' ' })),
    );

    // Assess
    expect(error).toMatchObject({ statusCode: 400, details: { missing: ['publicKey', 'privateKey'] } });
  });
});

describe("a merchant's own gateway, locally", () => {
  let dataDir: string;
  let gatewayServer: LocalPaymentGateway;
  let env: Record<string, string>;
  const asStore = <T>(work: () => Promise<T>): Promise<T> =>
    runAsFunction({ name: 'store', capabilities: OPEN, env: { ...BASE_ENV, ...env } }, work);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'merchant-gateway-'));
    gatewayServer = await startLocalPaymentGateway({
      dataDir: join(dataDir, 'payments'),
      allowedOrigins: [],
      webhookUrl: 'http://127.0.0.1:9/api/payments/webhooks',
      plans: [{ id: 'pro-monthly', billingFrequencyMonths: 1, price: '9.00', currency: 'USD' }],
      log: () => undefined,
      webhookRetryDelaysMs: [],
      webhookTimeoutMs: 200,
    });
    env = {
      MERCHANT_KEYS: 'local',
      MERCHANT_KEYS_FILE: ensureMerchantKeysKey(join(dataDir, 'merchant-keys.key')),
      MERCHANT_KEYS_MODE: 'open',
      MERCHANT_GATEWAY_URL: gatewayServer.endpoint,
    };
  });

  afterEach(() => useMerchantGatewayForTests(undefined));

  afterAll(async () => {
    await gatewayServer.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function connectedMerchant(merchantAccountId: string) {
    const keys = await asStore(() =>
      createLocalGatewayAccount({ currency: 'EUR', webhookUrl: 'http://127.0.0.1:9/api/i/penpay/webhooks' }),
    );
    const sealed = await asStore(() => sealMerchantKeys(merchantAccountId, keys));
    return { keys, sealed };
  }

  it('makes a local gateway account with the demo plans in its currency, whose keys check out', async () => {
    // Act
    const { keys } = await connectedMerchant('shop-1');
    const plans = await asStore(() => gatewayForKeys(keys).listPlans());

    // Assess
    expect(keys).toMatchObject({ environment: 'local', merchantId: expect.stringMatching(/^merchant_/) });
    expect(keys.merchantId).not.toBe(LOCAL_GATEWAY_KEYS.merchantId);
    expect(
      plans.map((plan) => `${plan.id} ${plan.price} ${plan.currency} ${plan.addOns.map((addOn) => addOn.id).join('+')}`),
    ).toEqual([
      'monthly 10.00 EUR extra-seat+priority-support',
      'quarterly 10.00 EUR extra-seat+priority-support',
      'yearly 10.00 EUR extra-seat+priority-support',
    ]);
  });

  it('answers a currency that is no ISO code with a 400', async () => {
    // Act
    const error = await caught(() => asStore(() => createLocalGatewayAccount({ currency: 'euro', webhookUrl: 'http://x' })));

    // Assess
    expect(error).toMatchObject({ statusCode: 400 });
  });

  it('refuses keys the local gateway does not know with GatewayCredentialsRejected, before they would be sealed', async () => {
    // Prepare
    const { keys } = await connectedMerchant('shop-2');

    // Act
    const error = await caught(() => asStore(() => gatewayForKeys({ ...keys, privateKey: 'not-the-private-key' }).listPlans()));

    // Assess
    expect(error).toBeInstanceOf(GatewayCredentialsRejected);
  });

  it("charges in the merchant's own account with its own keys, and keeps the gateway for the same sealed keys", async () => {
    // Prepare
    const { sealed } = await connectedMerchant('shop-3');
    const productGateway = createLocalPaymentGateway(gatewayServer.endpoint);

    // Act
    const gateway = await asStore(() => merchantPaymentGateway('shop-3', sealed));
    const again = await asStore(() => merchantPaymentGateway('shop-3', sealed));
    await gateway.ensureCustomer({ id: 'buyer-1', email: 'buyer@example.com' });
    const card = await gateway.vaultPaymentMethod({ customerId: 'buyer-1', nonce: 'fake-valid-visa-nonce' });
    const sale = await gateway.sale({ amount: '15.00', paymentMethodToken: card.token, orderId: 'shop-3-order-1' });

    // Assess
    expect(again).toBe(gateway);
    expect(sale).toMatchObject({ amount: '15.00', currency: 'EUR' });
    expect(await gateway.findSaleByOrderId('shop-3-order-1')).toEqual(sale);
    expect(await productGateway.findSaleByOrderId('shop-3-order-1')).toBeNull();
  });

  it('does not keep a failed open: the next call opens again', async () => {
    // Prepare
    const { sealed } = await connectedMerchant('shop-4');

    // Act
    const failed = await caught(() => asStore(() => merchantPaymentGateway('shop-5', sealed)));
    const opened = await asStore(() => merchantPaymentGateway('shop-4', sealed));

    // Assess
    expect(failed).toBeInstanceOf(MerchantKeysUnreadable);
    expect(opened.environment).toBe('local');
  });

  it('answers the test factory instead, when one is set', async () => {
    // Prepare
    const { sealed } = await connectedMerchant('shop-6');
    const fake = { environment: 'local' } as PaymentGateway;
    const asked: string[] = [];
    useMerchantGatewayForTests((merchantAccountId) => {
      asked.push(merchantAccountId);
      return fake;
    });

    // Act
    const gateway = await asStore(() => merchantPaymentGateway('shop-6', sealed));

    // Assess
    expect(gateway).toBe(fake);
    expect(asked).toEqual(['shop-6']);
  });
});
