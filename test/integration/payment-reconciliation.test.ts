import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { PLATFORM_SELLER_ID } from '../../functions/lib/payments/pro-plan-access';
import { dailyWindow } from '../../functions/lib/payments/reconciliation';
import { routes } from '../../shared/routes';
import type { ReconciliationReportView } from '../../shared/schemas/billing';
import type { GradeView } from '../../shared/schemas/merchant';
import { expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { addGrade, addProduct, openShop, type Shop, shopGatewayOf } from '../support/penpay';

const suite = apiSuite();

let superuser: SignedInUser;
let someoneElse: SignedInUser;

beforeAll(async () => {
  [superuser, someoneElse] = await Promise.all([
    suite.api.signIn('reconciler', { superuser: true }),
    suite.api.signIn('not-a-superuser'),
  ]);
});

interface ShopPurchase {
  shop: Shop;
  buyer: SignedInUser;
  invoiceId: string;
  /** The one-time sale's transaction ($15.00). */
  saleId: string;
  /** The subscription the order started ($9.00 a month), and its first charge. */
  subscriptionId: string;
  firstChargeId: string;
}

/**
 * A shop of its own (so its gateway holds only this test's charges) and a buyer who paid one
 * order through the real route: a mug sold once, $15.00, and a newsletter at $9.00 a month.
 */
async function shopWithAPurchase(label: string): Promise<ShopPurchase> {
  const [shop, buyer] = await Promise.all([openShop(suite, label), suite.api.signIn(`${label}-buyer`)]);
  const [mug, newsletter] = await Promise.all([addProduct(suite, shop, 'Mug'), addProduct(suite, shop, 'Newsletter')]);
  const grades: GradeView[] = await Promise.all([
    addGrade(suite, shop, mug, 'Large', 1_500),
    addGrade(suite, shop, newsletter, 'Monthly', 900, { plan: 'monthly' }),
  ]);
  for (const grade of grades) {
    expectOk(await suite.api.call(routes.addCartItem, { body: { productStockGradeId: grade.id, quantity: 1 }, as: buyer }));
  }
  const cart = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: shop.merchant.id }, as: buyer });
  expectOk(cart);
  const invoiceId = cart.body.invoice?.id as string;
  const paid = await suite.api.call(routes.fulfillStoreInvoice, {
    params: { invoiceId },
    body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
    as: buyer,
  });
  expectOk(paid);
  const { data: invoice } = await getDb().entities.invoice.get({ invoiceId }).go({ consistent: true });
  const subscriptionId = `s_${invoiceId}_1`;
  const gateway = await shopGatewayOf(suite, shop.merchant.id);
  const subscription = await gateway.findSubscription(subscriptionId);
  return {
    shop,
    buyer,
    invoiceId,
    saleId: invoice?.transactionId as string,
    subscriptionId,
    firstChargeId: subscription.transactions[0]?.id as string,
  };
}

async function reconcileNow(sellerId: string, window: { from?: string; to?: string } = {}): Promise<ReconciliationReportView> {
  const answer = await suite.api.call(routes.runReconciliation, { body: { sellerId, ...window }, as: superuser });
  expectOk(answer);
  return answer.body;
}

/** A payment record of ours for a charge no gateway made. */
async function plantRecord(sellerId: string, customerId: string, transactionId: string, chargedAt: string): Promise<void> {
  await getDb()
    .entities.payment.create({
      transactionId,
      customerId,
      sellerId,
      description: 'Planted by the reconciliation test',
      amountMinor: 700,
      currency: 'USD',
      chargedAt,
    })
    .go();
}

describe('reconciling one seller on demand', () => {
  it('is for superusers only: 401 signed out, 403 for anyone else, on both routes', async () => {
    // Act
    const answers = await Promise.all([
      suite.api.call(routes.runReconciliation, { body: { sellerId: PLATFORM_SELLER_ID } }),
      suite.api.call(routes.runReconciliation, { body: { sellerId: PLATFORM_SELLER_ID }, as: someoneElse }),
      suite.api.call(routes.listReconciliationReports, {}),
      suite.api.call(routes.listReconciliationReports, { as: someoneElse }),
    ]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([401, 403, 401, 403]);
  });

  it('reports no difference when the table and the gateway agree: a sale, a subscription and its first charge', async () => {
    // Prepare
    const purchase = await shopWithAPurchase('agreeing');

    // Act
    const report = await reconcileNow(purchase.shop.merchant.id);

    // Assess
    expect(report).toMatchObject({
      sellerId: purchase.shop.merchant.id,
      trigger: 'superuser',
      requestedBy: superuser.userId,
      outcome: 'matched',
      compared: { recordedCharges: 2, gatewayCharges: 2, subscriptions: 1 },
      differenceCount: 0,
      differences: [],
    });
    expect(Date.parse(report.window.to) - Date.parse(report.window.from)).toBe(86_400_000);
  });

  it('reports a charge made at the gateway that we never recorded, and nothing else', async () => {
    // Prepare: the shop's gateway charges the buyer's card directly, outside the product.
    const purchase = await shopWithAPurchase('direct-charge');
    const gateway = await shopGatewayOf(suite, purchase.shop.merchant.id);
    const { paymentMethodToken } = await gateway.findSubscription(purchase.subscriptionId);
    const planted = await gateway.sale({ amount: '42.00', paymentMethodToken, orderId: 'made-outside-the-product' });

    // Act
    const report = await reconcileNow(purchase.shop.merchant.id);

    // Assess
    expect(report.outcome).toBe('differences');
    expect(report.differences).toEqual([
      {
        kind: 'charge_not_recorded',
        transactionId: planted.id,
        orderId: 'made-outside-the-product',
        gateway: { status: 'submitted_for_settlement', amountMinor: 4_200, currency: 'USD', at: planted.createdAt },
      },
    ]);
    expect(report.compared).toEqual({ recordedCharges: 2, gatewayCharges: 3, subscriptions: 1, recordedRefunds: 0, gatewayRefunds: 0 });
  });

  it('reports a charge whose record of ours was lost, as a charge we did not record', async () => {
    // Prepare
    const purchase = await shopWithAPurchase('lost-record');
    await getDb().entities.payment.delete({ transactionId: purchase.saleId }).go();

    // Act
    const report = await reconcileNow(purchase.shop.merchant.id);

    // Assess
    expect(report.differences).toEqual([
      expect.objectContaining({
        kind: 'charge_not_recorded',
        transactionId: purchase.saleId,
        orderId: purchase.invoiceId,
        gateway: expect.objectContaining({ amountMinor: 1_500 }),
      }),
    ]);
  });

  it('reports a record of ours the gateway never charged, and one whose amount differs from the charge', async () => {
    // Prepare
    const purchase = await shopWithAPurchase('wrong-records');
    const chargedAt = new Date(Date.now() - 60_000).toISOString();
    await plantRecord(purchase.shop.merchant.id, purchase.buyer.userId, 'never-charged-1', chargedAt);
    await getDb().entities.payment.patch({ transactionId: purchase.firstChargeId }).set({ amountMinor: 990 }).go();

    // Act
    const report = await reconcileNow(purchase.shop.merchant.id);

    // Assess: sorted by time, the planted record being the older.
    expect(report.differences).toEqual([
      {
        kind: 'record_without_charge',
        mismatch: 'missing_at_gateway',
        transactionId: 'never-charged-1',
        customerId: purchase.buyer.userId,
        ours: { amountMinor: 700, currency: 'USD', at: chargedAt },
      },
      expect.objectContaining({
        kind: 'record_without_charge',
        mismatch: 'amount_differs',
        transactionId: purchase.firstChargeId,
        subscriptionId: purchase.subscriptionId,
        ours: expect.objectContaining({ amountMinor: 990 }),
        gateway: expect.objectContaining({ amountMinor: 900, status: 'submitted_for_settlement' }),
      }),
    ]);
  });

  it("reports a subscription whose stored status is not the gateway's", async () => {
    // Prepare
    const purchase = await shopWithAPurchase('wrong-status');
    await getDb().entities.subscription.patch({ subscriptionId: purchase.subscriptionId }).set({ status: 'Canceled' }).go();

    // Act
    const report = await reconcileNow(purchase.shop.merchant.id);

    // Assess
    expect(report.differences).toEqual([
      {
        kind: 'subscription_status_differs',
        subscriptionId: purchase.subscriptionId,
        customerId: purchase.buyer.userId,
        ours: { status: 'Canceled' },
        gateway: { status: 'Active' },
      },
    ]);
  });

  it('keeps to the window asked for: nothing of today in a window of last week', async () => {
    // Prepare
    const purchase = await shopWithAPurchase('other-window');
    const weekAgo = new Date(Date.now() - 7 * 86_400_000);

    // Act
    const report = await reconcileNow(purchase.shop.merchant.id, {
      from: new Date(weekAgo.getTime() - 86_400_000).toISOString(),
      to: weekAgo.toISOString(),
    });

    // Assess
    expect(report).toMatchObject({ outcome: 'matched', compared: { recordedCharges: 0, gatewayCharges: 0, subscriptions: 1 } });
  });

  it('answers 404 for a seller with no gateway, and 400 for a window that ends before it starts or is too long', async () => {
    // Prepare
    const unconnected = await openShop(suite, 'unconnected', { connect: false });
    const call = (body: { sellerId: string; from?: string; to?: string }) =>
      suite.api.call(routes.runReconciliation, { body, as: superuser });

    // Act
    const answers = await Promise.all([
      call({ sellerId: unconnected.merchant.id }),
      call({ sellerId: 'mer_nobody' }),
      call({ sellerId: PLATFORM_SELLER_ID, from: '2026-05-02T00:00:00Z', to: '2026-05-01T00:00:00Z' }),
      call({ sellerId: PLATFORM_SELLER_ID, from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' }),
    ]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 400, 400]);
  });
});

describe('the daily reconciliation job', () => {
  it('reconciles yesterday for the platform and every connected shop, reports exactly what was planted, and lists the latest', async () => {
    // Prepare: a Pro subscriber (the platform), and a shop whose records agree with its gateway.
    const subscriber = await suite.api.signIn('pro-subscriber');
    const checkout = await suite.api.call(routes.getCheckoutInvoice, { query: { priceId: 'pro-monthly' }, as: subscriber });
    expectOk(checkout);
    const paid = await suite.api.call(routes.fulfillSubscriptionInvoice, {
      params: { invoiceId: checkout.body.invoice.id },
      body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
      as: subscriber,
    });
    expectOk(paid);
    const proSubscriptionId = paid.body.subscription.id;
    const agreeing = await shopWithAPurchase('daily-agreeing');
    const onDemandFirst = await reconcileNow(PLATFORM_SELLER_ID);
    // Then: the stored Pro subscription says Past Due (the gateway: Active), and a record of ours
    // made yesterday names a charge the platform's gateway never made.
    await getDb().entities.subscription.patch({ subscriptionId: proSubscriptionId }).set({ status: 'Past Due' }).go();
    const yesterday = dailyWindow(new Date());
    const plantedAt = new Date(Date.parse(yesterday.from) + 12 * 3_600_000).toISOString();
    await plantRecord(PLATFORM_SELLER_ID, subscriber.userId, 'never-charged-yesterday', plantedAt);

    // Act
    await suite.runtime.runJob('reconcile-payments');
    const platformReports = await suite.api.call(routes.listReconciliationReports, {
      query: { sellerId: PLATFORM_SELLER_ID, limit: 1 },
      as: superuser,
    });
    const shopReports = await suite.api.call(routes.listReconciliationReports, {
      query: { sellerId: agreeing.shop.merchant.id, limit: 1 },
      as: superuser,
    });
    const everyone = await suite.api.call(routes.listReconciliationReports, { as: superuser });

    // Assess
    expect(onDemandFirst).toMatchObject({
      outcome: 'matched',
      compared: { recordedCharges: 1, gatewayCharges: 1, subscriptions: 1 },
    });
    expectOk(platformReports);
    const [daily] = platformReports.body.items;
    expect(daily).toMatchObject({
      trigger: 'schedule',
      outcome: 'differences',
      window: dailyWindow(new Date(daily?.ranAt ?? '')),
    });
    expect(daily?.differences).toEqual([
      {
        kind: 'record_without_charge',
        mismatch: 'missing_at_gateway',
        transactionId: 'never-charged-yesterday',
        customerId: subscriber.userId,
        ours: { amountMinor: 700, currency: 'USD', at: plantedAt },
      },
      {
        kind: 'subscription_status_differs',
        subscriptionId: proSubscriptionId,
        customerId: subscriber.userId,
        ours: { status: 'Past Due' },
        gateway: { status: 'Active' },
      },
    ]);
    expectOk(shopReports);
    expect(shopReports.body.items[0]).toMatchObject({
      trigger: 'schedule',
      outcome: 'matched',
      compared: { recordedCharges: 0, gatewayCharges: 0, subscriptions: 1 },
      differences: [],
    });
    expectOk(everyone);
    const ranAt = daily?.ranAt ?? '';
    const sellersOfTheRun = everyone.body.items.filter(
      (report) => report.trigger === 'schedule' && report.ranAt >= ranAt.slice(0, 16),
    );
    expect(sellersOfTheRun.map((report) => report.sellerId)).toEqual(
      expect.arrayContaining([PLATFORM_SELLER_ID, agreeing.shop.merchant.id]),
    );
    expect(everyone.body.items.map((report) => report.ranAt)).toEqual(
      [...everyone.body.items.map((report) => report.ranAt)].sort().reverse(),
    );
    // The gateway was only read: the planted difference is still there to be fixed.
    const platformGateway = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    expect((await platformGateway.findSubscription(proSubscriptionId)).status).toBe('Active');
  });
});
