import { beforeAll, describe, expect, it } from 'vitest';
import { gradeScope, productScope, shopScope } from '../../functions/lib/db/entities/store-figures';
import { getDb } from '../../functions/lib/db/service';
import { PaymentGatewayUnavailable } from '../../functions/lib/payments/gateway';
import { useMerchantGatewayForTests } from '../../functions/lib/payments/merchant-gateway';
import { figureDayOf, orderScopesOf, recordStoreCharge, type StoreCharge } from '../../functions/penpay/lib/sales-ledger';
import { routes } from '../../shared/routes';
import type { GradeView } from '../../shared/schemas/merchant';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { paymentsOf } from '../support/payments';
import { addGrade, addProduct, expectMessage, openShop, type Shop, shopGatewayOf } from '../support/penpay';

const suite = apiSuite();

interface StockedShop {
  shop: Shop;
  /** Mug — Large, $15.00, sold once. */
  large: GradeView;
  /** Newsletter — Monthly, $9.00 a month on the local 'monthly' plan. */
  monthly: GradeView;
}

/** A connected shop of its own per test that reads figures: a shop's figures are all of its sales. */
async function stockedShop(label: string): Promise<StockedShop> {
  const shop = await openShop(suite, label);
  const [mug, newsletter] = await Promise.all([addProduct(suite, shop, 'Mug'), addProduct(suite, shop, 'Newsletter')]);
  const [large, monthly] = await Promise.all([
    addGrade(suite, shop, mug, 'Large', 1_500),
    addGrade(suite, shop, newsletter, 'Monthly', 900, { plan: 'monthly' }),
  ]);
  return { shop, large, monthly };
}

async function fill(customer: SignedInUser, lines: readonly [GradeView, number][]) {
  for (const [grade, quantity] of lines) {
    expectOk(await suite.api.call(routes.addCartItem, { body: { productStockGradeId: grade.id, quantity }, as: customer }));
  }
}

async function cartOf(customer: SignedInUser, shop: Shop) {
  const answer = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: shop.merchant.id }, as: customer });
  expectOk(answer);
  return answer.body;
}

async function invoiceOf(customer: SignedInUser, shop: Shop) {
  const { invoice } = await cartOf(customer, shop);
  if (!invoice) throw new Error('The cart has no invoice');
  return invoice;
}

const fulfil = (customer: SignedInUser, invoiceId: string, nonce = 'fake-valid-visa-nonce') =>
  suite.api.call(routes.fulfillStoreInvoice, { params: { invoiceId }, body: { paymentMethodNonce: nonce }, as: customer });

const storedInvoice = async (invoiceId: string) =>
  (await getDb().entities.invoice.get({ invoiceId }).go({ consistent: true })).data;
const figure = async (merchantAccountId: string, scope: string, period: string) =>
  (await getDb().entities.storeFigure.get({ merchantAccountId, scope, period }).go({ consistent: true })).data;
const salesOf = async (merchantAccountId: string, scope = shopScope) =>
  (await getDb().entities.storeSale.query.byScope({ merchantAccountId, scope }).go({ pages: 'all' })).data;

async function unseenOf(user: SignedInUser) {
  const answer = await suite.api.call(routes.listUnseenNotifications, { as: user });
  expectOk(answer);
  return answer.body.items;
}

describe('buying a one-time and a subscription grade together', () => {
  let stocked: StockedShop;
  let buyer: SignedInUser;
  let invoiceId: string;
  let first: Awaited<ReturnType<typeof fulfil>>;
  let second: Awaited<ReturnType<typeof fulfil>>;

  beforeAll(async () => {
    // Prepare
    [stocked, buyer] = await Promise.all([stockedShop('together'), suite.api.signIn('together-buyer')]);
    await fill(buyer, [
      [stocked.large, 2],
      [stocked.monthly, 1],
    ]);
    const invoice = await invoiceOf(buyer, stocked.shop);
    invoiceId = invoice.id;
    expect(invoice.total.amountMinor).toBe(2 * 1_500 + 900);

    // Act
    first = await fulfil(buyer, invoiceId);
    second = await fulfil(buyer, invoiceId, 'fake-consumed-nonce');
  });

  it('answers true, and true again for a second call, charging the shop’s gateway once: one sale and one subscription', async () => {
    // Assess
    expectOk(first);
    expect(first.body).toBe(true);
    expectOk(second);
    expect(second.body).toBe(true);
    const gateway = await shopGatewayOf(suite, stocked.shop.merchant.id);
    const sale = await gateway.findSaleByOrderId(invoiceId);
    expect(sale).toMatchObject({ amount: '30.00', currency: 'USD' });
    const subscription = await gateway.findSubscription(`s_${invoiceId}_1`);
    expect(subscription).toMatchObject({ status: 'Active', planId: 'monthly', price: '9.00' });
    expect(subscription.transactions).toHaveLength(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(2);
  });

  it('records the invoice paid, the subscription, the order, and empties what was bought from the cart', async () => {
    // Act
    const invoice = await storedInvoice(invoiceId);
    const { data: subscription } = await getDb()
      .entities.subscription.get({ subscriptionId: `s_${invoiceId}_1` })
      .go();
    const orders = await suite.api.call(routes.listMyOrders, { as: buyer });
    const cart = await cartOf(buyer, stocked.shop);

    // Assess
    expect(invoice).toMatchObject({ status: 'paid', subscriptionIds: [`s_${invoiceId}_1`] });
    expect(invoice?.transactionId).toEqual(expect.any(String));
    expect(subscription).toMatchObject({
      customerId: buyer.userId,
      sellerId: stocked.shop.merchant.id,
      productId: stocked.monthly.productStockId,
      priceId: stocked.monthly.id,
      gatewayPlanId: 'monthly',
      billingFrequencyMonths: 1,
      status: 'Active',
      addOns: [],
    });
    expectOk(orders);
    expect(orders.body.items).toHaveLength(1);
    expect(orders.body.items[0]).toMatchObject({
      invoiceId,
      shop: { id: stocked.shop.merchant.id, shopName: 'together shop' },
      total: { amountMinor: 3_900, currency: 'USD' },
      card: { cardType: 'Visa', last4: '1881' },
    });
    expect(orders.body.items[0]?.lines.map((line) => [line.description, line.billing, line.quantity])).toEqual([
      ['Mug — Large', 'once', 2],
      ['Newsletter — Monthly', 'subscription', 1],
    ]);
    expect(cart.items).toEqual([]);
    expect(cart.invoice).toBeNull();
  });

  it('counts the sale and the first cycle once in the shop’s figures, per product and per grade', async () => {
    // Prepare
    const merchantId = stocked.shop.merchant.id;
    const sale = await (await shopGatewayOf(suite, merchantId)).findSaleByOrderId(invoiceId);
    const day = figureDayOf(sale?.createdAt ?? '');

    // Act
    const [shopDay, mugDay, monthlyDay, total, sales] = await Promise.all([
      figure(merchantId, shopScope, day),
      figure(merchantId, productScope(stocked.large.productStockId), day),
      figure(merchantId, gradeScope(stocked.monthly.id), day),
      figure(merchantId, shopScope, 'total'),
      salesOf(merchantId),
    ]);

    // Assess
    // One cart paid in two charges (the sale, the first cycle) is one order.
    expect(shopDay).toMatchObject({ orders: 1, units: 3, revenueMinor: 3_900 });
    expect(mugDay).toMatchObject({ orders: 1, units: 2, revenueMinor: 3_000 });
    expect(monthlyDay).toMatchObject({ orders: 1, units: 1, revenueMinor: 900 });
    expect(total?.activeSubscriptions).toBe(1);
    expect(sales.map((row) => [row.kind, row.description, row.amountMinor, row.invoiceId]).sort()).toEqual(
      [
        ['order', 'Mug — Large × 2', 3_000, invoiceId],
        ['order', 'Newsletter — Monthly', 900, invoiceId],
      ].sort(),
    );
    // Who bought, so the merchant can deliver.
    expect(sales.every((row) => row.customerName === buyer.username && row.customerEmail === buyer.email)).toBe(true);
  });

  it('emails the customer one receipt and the merchant one sale notice, and notifies both', async () => {
    // Act
    const [receipts, notices, customerNotifications, merchantNotifications] = await Promise.all([
      mailsTo(suite.runtime.mailDir, buyer.email),
      mailsTo(suite.runtime.mailDir, stocked.shop.owner.email),
      unseenOf(buyer),
      unseenOf(stocked.shop.owner),
    ]);

    // Assess
    expect(receipts.map((mail) => mail.headers.subject)).toEqual(['Your receipt from together shop: $39.00']);
    expect(receipts[0]?.text).toContain('Mug — Large × 2: $30.00');
    expect(receipts[0]?.text).toContain('Newsletter — Monthly: $9.00, then $9.00 every month');
    expect(receipts[0]?.text).toContain('Visa ending 1881');
    expect(notices.map((mail) => mail.headers.subject)).toEqual(['New order at together shop: $39.00']);
    expect(notices[0]?.text).toContain(buyer.email);
    expect(customerNotifications).toEqual([
      expect.objectContaining({
        kind: 'store-order-confirmed',
        app: 'store',
        object: expect.objectContaining({ type: 'store-order', id: invoiceId, title: 'together shop' }),
      }),
    ]);
    expect(merchantNotifications).toEqual([
      expect.objectContaining({
        kind: 'store-sale',
        app: 'store',
        object: expect.objectContaining({ type: 'store-order', id: invoiceId, title: 'Mug' }),
        actors: [expect.objectContaining({ userId: buyer.userId })],
      }),
    ]);
  });
});

describe('paying safely', () => {
  let stocked: StockedShop;
  let rival: StockedShop;

  beforeAll(async () => {
    [stocked, rival] = await Promise.all([stockedShop('safely'), stockedShop('rival')]);
  });

  it('charges nothing and says what changed when a grade changed price or stopped being sold since the invoice', async () => {
    // Prepare
    const buyer = await suite.api.signIn('stale-buyer');
    const pen = await addProduct(suite, stocked.shop, 'Pen');
    const [blue, red] = await Promise.all([
      addGrade(suite, stocked.shop, pen, 'Blue', 500),
      addGrade(suite, stocked.shop, pen, 'Red', 600),
    ]);
    await fill(buyer, [
      [blue, 1],
      [red, 1],
    ]);
    const stale = await invoiceOf(buyer, stocked.shop);
    expectOk(
      await suite.api.call(routes.updateGradeCost, {
        params: { productStockId: pen.id, productStockGradeId: blue.id },
        body: { amountMinor: 550 },
        as: stocked.shop.owner,
      }),
    );
    expectOk(await suite.api.call(routes.unstockGrade, { params: { productStockGradeId: red.id }, as: stocked.shop.owner }));

    // Act
    const refused = await fulfil(buyer, stale.id);
    const cart = await cartOf(buyer, stocked.shop);
    const paidFresh = await fulfil(buyer, cart.invoice?.id ?? '');

    // Assess
    expectError(refused, 409);
    expectMessage(
      refused,
      /Pen — Blue now costs \$5\.50 \(it was \$5\.00\); Pen — Red is no longer sold\. Review your cart: nothing was charged/,
    );
    expect(await (await shopGatewayOf(suite, stocked.shop.merchant.id)).findSaleByOrderId(stale.id)).toBeNull();
    expect(await storedInvoice(stale.id)).toMatchObject({ status: 'open' });
    expect(cart.items.map((item) => [item.gradeName, item.status])).toEqual([
      ['Blue', 'price-changed'],
      ['Red', 'unavailable'],
    ]);
    expect(cart.invoice?.id).not.toBe(stale.id);
    expect(cart.invoice?.total.amountMinor).toBe(550);
    expectOk(paidFresh);
    expect((await paymentsOf(buyer.userId)).map((payment) => payment.amountMinor)).toEqual([550]);
  });

  it('answers 402 with the reason for a declined card, keeps the invoice payable, and then takes another card', async () => {
    // Prepare
    const buyer = await suite.api.signIn('declined-buyer');
    await fill(buyer, [[stocked.large, 1]]);
    const invoice = await invoiceOf(buyer, stocked.shop);

    // Act
    const declined = await fulfil(buyer, invoice.id, 'fake-processor-declined-visa-nonce');
    const afterDecline = await cartOf(buyer, stocked.shop);
    const paid = await fulfil(buyer, invoice.id, 'fake-valid-mastercard-nonce');

    // Assess
    expectError(declined, 402);
    expect(declined.body).toMatchObject({ code: 'PAYMENT_DECLINED', reason: 'processor_declined' });
    expectMessage(declined, /declined/i);
    expect(afterDecline.invoice).toMatchObject({ id: invoice.id, status: 'open', lastDecline: { reason: 'processor_declined' } });
    expect(afterDecline.items).toHaveLength(1);
    expectOk(paid);
    const sale = await (await shopGatewayOf(suite, stocked.shop.merchant.id)).findSaleByOrderId(invoice.id);
    expect(sale).toMatchObject({ amount: '15.00', status: expect.stringMatching(/submitted_for_settlement|settl/) });
    const payments = await paymentsOf(buyer.userId);
    expect(payments.map((payment) => [payment.amountMinor, payment.last4])).toEqual([[1_500, '4444']]);
  });

  it('answers 402 when the sale itself is declined, and records nothing', async () => {
    // Prepare
    const buyer = await suite.api.signIn('sale-declined');
    const frame = await addProduct(suite, stocked.shop, 'Frame');
    // The local gateway, as Braintree's sandbox, declines any charge of 2000.00 to 2999.99.
    const huge = await addGrade(suite, stocked.shop, frame, 'Huge', 250_000);
    await fill(buyer, [[huge, 1]]);
    const invoice = await invoiceOf(buyer, stocked.shop);

    // Act
    const declined = await fulfil(buyer, invoice.id);
    const orders = await suite.api.call(routes.listMyOrders, { as: buyer });

    // Assess
    expectError(declined, 402);
    expect(declined.body).toMatchObject({ reason: 'processor_declined' });
    expect(await storedInvoice(invoice.id)).toMatchObject({ status: 'open', lastDecline: { reason: 'processor_declined' } });
    expect(await storedInvoice(invoice.id)).not.toHaveProperty('transactionId');
    expectOk(orders);
    expect(orders.body.items).toEqual([]);
    expect(await paymentsOf(buyer.userId)).toEqual([]);
    expect(await salesOf(stocked.shop.merchant.id, productScope(frame.id))).toEqual([]);
  });

  it('charges once for twenty concurrent payments of one invoice, and answers each true', async () => {
    // Prepare
    const buyer = await suite.api.signIn('many-clicks');
    await fill(buyer, [
      [stocked.large, 3],
      [stocked.monthly, 1],
    ]);
    const invoice = await invoiceOf(buyer, stocked.shop);

    // Act
    const answers = await Promise.all(Array.from({ length: 20 }, () => fulfil(buyer, invoice.id)));

    // Assess
    for (const answer of answers) {
      expectOk(answer);
      expect(answer.body).toBe(true);
    }
    const gateway = await shopGatewayOf(suite, stocked.shop.merchant.id);
    expect(await gateway.findSaleByOrderId(invoice.id)).toMatchObject({ amount: '45.00' });
    expect((await gateway.findSubscription(`s_${invoice.id}_1`)).transactions).toHaveLength(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(2);
    const mine = (await salesOf(stocked.shop.merchant.id)).filter((row) => row.customerId === buyer.userId);
    expect(mine).toHaveLength(2);
    const receipts = await mailsTo(suite.runtime.mailDir, buyer.email);
    expect(receipts).toHaveLength(1);
  });

  it('lets nobody but the invoice’s customer pay it: another customer, another merchant, a Pro plan invoice and a made-up id are 404', async () => {
    // Prepare
    const [owner, stranger] = await Promise.all([suite.api.signIn('invoice-owner'), suite.api.signIn('stranger')]);
    await fill(owner, [[stocked.large, 1]]);
    const invoice = await invoiceOf(owner, stocked.shop);
    const pro = await suite.api.call(routes.getCheckoutInvoice, { query: { priceId: 'pro-monthly' }, as: owner });
    expectOk(pro);

    // Act
    const byStranger = await fulfil(stranger, invoice.id);
    const byRivalMerchant = await fulfil(rival.shop.owner, invoice.id);
    const byShopOwner = await fulfil(stocked.shop.owner, invoice.id);
    const proInvoice = await fulfil(owner, pro.body.invoice.id);
    const madeUp = await fulfil(owner, 'AAAAAAAAAAAAAAAAAAAAAA');
    const signedOut = await suite.api.call(routes.fulfillStoreInvoice, {
      params: { invoiceId: invoice.id },
      body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
    });
    const strangersCart = await cartOf(stranger, stocked.shop);

    // Assess
    for (const answer of [byStranger, byRivalMerchant, byShopOwner, proInvoice, madeUp]) expectError(answer, 404);
    expect(byStranger.body).toEqual(madeUp.body);
    expectError(signedOut, 401);
    expect(await storedInvoice(invoice.id)).toMatchObject({ status: 'open', attempt: 0 });
    expect(await (await shopGatewayOf(suite, stocked.shop.merchant.id)).findSaleByOrderId(invoice.id)).toBeNull();
    expect(strangersCart).toMatchObject({ items: [], invoice: null });
  });
});

describe('a subscription declined after the one-time part was paid', () => {
  let stocked: StockedShop;
  let buyer: SignedInUser;
  let invoiceId: string;
  let declined: Awaited<ReturnType<typeof fulfil>>;

  beforeAll(async () => {
    // Prepare
    [stocked, buyer] = await Promise.all([stockedShop('partly'), suite.api.signIn('partly-buyer')]);
    await fill(buyer, [
      [stocked.large, 1],
      [stocked.monthly, 1],
    ]);
    invoiceId = (await invoiceOf(buyer, stocked.shop)).id;

    // Act: this local test card pays its first charge (the sale) and declines every later one (the subscription's first cycle).
    declined = await fulfil(buyer, invoiceId, 'local-declines-later-visa-nonce');
  });

  it('answers 402 saying what is paid and what is not, and keeps the paid part as paid', async () => {
    // Act
    const gateway = await shopGatewayOf(suite, stocked.shop.merchant.id);
    const sale = await gateway.findSaleByOrderId(invoiceId);
    const orders = await suite.api.call(routes.listMyOrders, { as: buyer });
    const cart = await cartOf(buyer, stocked.shop);
    const receipts = await mailsTo(suite.runtime.mailDir, buyer.email);

    // Assess
    expectError(declined, 402);
    expect(declined.body).toMatchObject({ reason: 'processor_declined', partlyPaid: true });
    expectMessage(declined, /Already paid, and not charged again: Mug — Large\. Still to pay: Newsletter — Monthly\. Pay again/);
    expect(sale).toMatchObject({ amount: '15.00' });
    await expect(gateway.findSubscription(`s_${invoiceId}_1`)).rejects.toThrow(/not known/);
    expect(await storedInvoice(invoiceId)).toMatchObject({ status: 'open', transactionId: sale?.id });
    expectOk(orders);
    expect(orders.body.items.map((order) => [order.invoiceId, order.total.amountMinor, order.lines.length])).toEqual([
      [invoiceId, 1_500, 1],
    ]);
    // The paid line left the cart; what is left still answers the same invoice, which will not charge the mug again.
    expect(cart.items.map((item) => item.gradeName)).toEqual(['Monthly']);
    expect(cart.invoice).toMatchObject({ id: invoiceId, status: 'open', lastDecline: { reason: 'processor_declined' } });
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('Charged: $15.00');
    expect(receipts[0]?.text).toContain('Not charged yet: Newsletter — Monthly');
    const day = figureDayOf(sale?.createdAt ?? '');
    expect(await figure(stocked.shop.merchant.id, shopScope, day)).toMatchObject({ orders: 1, revenueMinor: 1_500 });
  });

  it('finishes with another card, charging only the subscription', async () => {
    // Act
    const paid = await fulfil(buyer, invoiceId, 'fake-valid-visa-nonce');
    const gateway = await shopGatewayOf(suite, stocked.shop.merchant.id);
    const orders = await suite.api.call(routes.listMyOrders, { as: buyer });
    const cart = await cartOf(buyer, stocked.shop);

    // Assess
    expectOk(paid);
    expect(paid.body).toBe(true);
    expect(await storedInvoice(invoiceId)).toMatchObject({ status: 'paid', subscriptionIds: [`s_${invoiceId}_1`] });
    expect(await gateway.findSubscription(`s_${invoiceId}_1`)).toMatchObject({ status: 'Active' });
    expect((await paymentsOf(buyer.userId)).map((payment) => payment.amountMinor).sort()).toEqual([1_500, 900].sort());
    expectOk(orders);
    expect(orders.body.items.map((order) => [order.total.amountMinor, order.lines.length])).toEqual([[2_400, 2]]);
    expect(cart).toMatchObject({ items: [], invoice: null });
    const day = figureDayOf((await gateway.findSaleByOrderId(invoiceId))?.createdAt ?? '');
    // Still one order: paid in two attempts, counted by the first charge.
    expect(await figure(stocked.shop.merchant.id, shopScope, day)).toMatchObject({ orders: 1, units: 2, revenueMinor: 2_400 });
    expect(await unseenOf(buyer)).toEqual([expect.objectContaining({ kind: 'store-order-confirmed' })]);
    const receipts = await mailsTo(suite.runtime.mailDir, buyer.email);
    expect(receipts.map((mail) => mail.headers.subject)).toEqual([
      'Your receipt from partly shop: $15.00',
      'Your receipt from partly shop: $9.00',
    ]);
  });
});

describe('an invoice the cart has moved on from', () => {
  let stocked: StockedShop;
  /** Mug — Small, $12.00, sold once: the second item added after the first invoice was read. */
  let small: GradeView;

  beforeAll(async () => {
    stocked = await stockedShop('moved-on');
    small = await addGrade(suite, stocked.shop, { id: stocked.large.productStockId }, 'Small', 1_200);
  });

  /** Item 1 in the cart and its invoice A; item 2 added and the cart read again: invoice B, for both. */
  async function twoInvoices(label: string) {
    const buyer = await suite.api.signIn(label);
    await fill(buyer, [[stocked.large, 1]]);
    const first = await invoiceOf(buyer, stocked.shop);
    await fill(buyer, [[small, 1]]);
    const second = await invoiceOf(buyer, stocked.shop);
    expect(second.id).not.toBe(first.id);
    expect(second.total.amountMinor).toBe(1_500 + 1_200);
    return { buyer, first, second };
  }

  const saleOf = async (invoiceId: string) => (await shopGatewayOf(suite, stocked.shop.merchant.id)).findSaleByOrderId(invoiceId);

  it('refuses the earlier invoice with 409 once the later one is paid, and charges item 1 once', async () => {
    // Prepare
    const { buyer, first, second } = await twoInvoices('b-then-a');
    expectOk(await fulfil(buyer, second.id));

    // Act
    const stale = await fulfil(buyer, first.id);

    // Assess
    expectError(stale, 409);
    expectMessage(stale, /Your cart changed since this invoice was made: nothing was charged/);
    expect(await saleOf(first.id)).toBeNull();
    expect((await paymentsOf(buyer.userId)).map((payment) => payment.amountMinor)).toEqual([2_700]);
  });

  it('refuses the earlier invoice with 409 before anything is charged, even when nothing else was paid', async () => {
    // Prepare
    const { buyer, first } = await twoInvoices('a-after-b-read');

    // Act
    const stale = await fulfil(buyer, first.id);

    // Assess
    expectError(stale, 409);
    expectMessage(stale, /Your cart changed/);
    expect(await saleOf(first.id)).toBeNull();
    expect(await storedInvoice(first.id)).toMatchObject({ status: 'open', attempt: 0 });
    expect(await paymentsOf(buyer.userId)).toEqual([]);
  });

  it('pays only the current invoice when both are paid at the same time', async () => {
    // Prepare
    const { buyer, first, second } = await twoInvoices('a-and-b-at-once');

    // Act
    const answers = await Promise.all([first.id, second.id, first.id, second.id].map((invoiceId) => fulfil(buyer, invoiceId)));

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([409, 200, 409, 200]);
    expect(await saleOf(first.id)).toBeNull();
    expect(await saleOf(second.id)).toMatchObject({ amount: '27.00' });
    expect((await paymentsOf(buyer.userId)).map((payment) => payment.amountMinor)).toEqual([2_700]);
  });

  it('lets an invoice already being paid when the cart changed complete, and the new one then says the cart was paid', async () => {
    // Prepare: the shop's gateway holds invoice A's sale until the cart has moved on.
    const buyer = await suite.api.signIn('paying-while-changed');
    await fill(buyer, [[stocked.large, 1]]);
    const first = await invoiceOf(buyer, stocked.shop);
    const real = await shopGatewayOf(suite, stocked.shop.merchant.id);
    let saleStarted!: () => void;
    const started = new Promise<void>((resolve) => (saleStarted = resolve));
    let letSaleGo!: () => void;
    const held = new Promise<void>((resolve) => (letSaleGo = resolve));
    useMerchantGatewayForTests(() => ({
      ...real,
      environment: real.environment,
      sale: async (request) => {
        saleStarted();
        await held;
        return real.sale(request);
      },
    }));
    try {
      const paying = fulfil(buyer, first.id);
      await started;
      await fill(buyer, [[small, 1]]);
      const second = await invoiceOf(buyer, stocked.shop);

      // Act
      letSaleGo();
      const paidFirst = await paying;
      const paidSecond = await fulfil(buyer, second.id);
      const after = await cartOf(buyer, stocked.shop);

      // Assess
      expectOk(paidFirst);
      expectError(paidSecond, 409);
      expectMessage(paidSecond, /Your cart was paid .*: nothing more was charged/);
      expect(await saleOf(second.id)).toBeNull();
      expect((await paymentsOf(buyer.userId)).map((payment) => payment.amountMinor)).toEqual([1_500]);
      expect(after.items.map((item) => item.gradeName)).toEqual(['Small']);
      expect(after.invoice?.id).not.toBe(second.id);
      expect(after.invoice?.total.amountMinor).toBe(1_200);
    } finally {
      useMerchantGatewayForTests(undefined);
    }
  });
});

describe('a payment whose answer was lost', () => {
  it('keeps its invoice as the cart’s until it is paid again, and then records the sale once without charging anew', async () => {
    // Prepare: the shop's gateway takes the sale, but its answer never arrives.
    const stocked = await stockedShop('lost-sale');
    const small = await addGrade(suite, stocked.shop, { id: stocked.large.productStockId }, 'Small', 1_200);
    const buyer = await suite.api.signIn('lost-sale-buyer');
    await fill(buyer, [[stocked.large, 1]]);
    const invoice = await invoiceOf(buyer, stocked.shop);
    const real = await shopGatewayOf(suite, stocked.shop.merchant.id);
    useMerchantGatewayForTests(() => ({
      ...real,
      environment: real.environment,
      sale: async (request) => {
        await real.sale(request);
        throw new PaymentGatewayUnavailable(new Error('socket hang up'));
      },
    }));
    let lost: Awaited<ReturnType<typeof fulfil>>;
    try {
      lost = await fulfil(buyer, invoice.id);
    } finally {
      useMerchantGatewayForTests(undefined);
    }
    await fill(buyer, [[small, 1]]);

    // Act
    const cart = await cartOf(buyer, stocked.shop);
    const retried = await fulfil(buyer, invoice.id);

    // Assess
    expectError(lost, 503);
    expect(cart.invoice?.id).toBe(invoice.id);
    expectOk(retried);
    expect(await storedInvoice(invoice.id)).toMatchObject({ status: 'paid' });
    expect(await storedInvoice(invoice.id)).not.toHaveProperty('inDoubt');
    expect(await real.findSaleByOrderId(invoice.id)).toMatchObject({ amount: '15.00' });
    expect((await paymentsOf(buyer.userId)).map((payment) => payment.amountMinor)).toEqual([1_500]);
    const after = await cartOf(buyer, stocked.shop);
    expect(after.items.map((item) => item.gradeName)).toEqual(['Small']);
    expect(after.invoice?.total.amountMinor).toBe(1_200);
  });
});

describe('one subscription per grade', () => {
  it('refuses to start a second subscription to a grade its customer already holds, charging nothing', async () => {
    // Prepare
    const [stocked, buyer] = await Promise.all([stockedShop('one-per-grade'), suite.api.signIn('one-per-grade-buyer')]);
    await fill(buyer, [[stocked.monthly, 1]]);
    expectOk(await fulfil(buyer, (await invoiceOf(buyer, stocked.shop)).id));
    await fill(buyer, [[stocked.monthly, 1]]);
    const again = await invoiceOf(buyer, stocked.shop);

    // Act
    const answer = await fulfil(buyer, again.id);

    // Assess
    expectError(answer, 409);
    expectMessage(answer, /You subscribe to Newsletter — Monthly already.*nothing was charged/);
    const gateway = await shopGatewayOf(suite, stocked.shop.merchant.id);
    await expect(gateway.findSubscription(`s_${again.id}_1`)).rejects.toThrow();
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
  });

  it('starts one subscription when the cart paid in one tab races "buy now" of the same grade in another', async () => {
    // Prepare: "buy now" in one tab after the cart's invoice was read in the other.
    const [stocked, buyer] = await Promise.all([stockedShop('two-tabs-grade'), suite.api.signIn('two-tabs-grade-buyer')]);
    await fill(buyer, [[stocked.monthly, 1]]);
    const fromCart = await invoiceOf(buyer, stocked.shop);
    expectOk(
      await suite.api.call(routes.replaceCartWithItem, {
        body: { productStockGradeId: stocked.monthly.id, quantity: 1 },
        as: buyer,
      }),
    );
    await fill(buyer, [[stocked.large, 1]]);
    const fromBuyNow = await invoiceOf(buyer, stocked.shop);

    // Act
    const answers = await Promise.all([fulfil(buyer, fromCart.id), fulfil(buyer, fromBuyNow.id)]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([409, 200]);
    const gateway = await shopGatewayOf(suite, stocked.shop.merchant.id);
    await expect(gateway.findSubscription(`s_${fromCart.id}_1`)).rejects.toThrow();
    expect((await gateway.findSubscription(`s_${fromBuyNow.id}_1`)).status).toBe('Active');
  });
});

describe('the sales ledger', () => {
  it('counts a cart paid in several charges as one order, in the first charge that touches each scope', () => {
    // Prepare: a mug sold once, then two subscriptions (one of the mug's own product)
    const lines = [
      { productId: 'prd_mug', priceId: 'grd_large', billing: 'once' as const },
      { productId: 'prd_mug', priceId: 'grd_club', billing: 'subscription' as const },
      { productId: 'prd_news', priceId: 'grd_monthly', billing: 'subscription' as const },
    ];

    // Act
    const [sale, first, second] = [orderScopesOf(lines, 'sale'), orderScopesOf(lines, 1), orderScopesOf(lines, 2)];

    // Assess
    expect([...sale].sort()).toEqual([shopScope, productScope('prd_mug'), gradeScope('grd_large')].sort());
    expect([...first]).toEqual([gradeScope('grd_club')]);
    expect([...second].sort()).toEqual([productScope('prd_news'), gradeScope('grd_monthly')].sort());
    expect([...orderScopesOf(lines.slice(1), 1)].sort()).toEqual(
      [shopScope, productScope('prd_mug'), gradeScope('grd_club')].sort(),
    );
  });

  it('records a charge once, however many times it is told, for the shop, each product and each grade', async () => {
    // Prepare
    const db = getDb();
    const merchantAccountId = 'mer_ledgertest0000000001';
    const charge: StoreCharge = {
      merchantAccountId,
      transactionId: 'tx-ledger-1',
      kind: 'order',
      opensOrderIn: new Set([
        shopScope,
        productScope('prd_a'),
        productScope('prd_b'),
        gradeScope('grd_a1'),
        gradeScope('grd_a2'),
        gradeScope('grd_b1'),
      ]),
      invoiceId: 'inv-ledger-1',
      customer: { id: 'customer-1', name: 'Ana', email: 'ana@example.com' },
      paidAt: '2026-11-20T10:00:00Z',
      currency: 'USD',
      lines: [
        { productStockId: 'prd_a', productStockGradeId: 'grd_a1', description: 'A — One', units: 2, amountMinor: 2_000 },
        { productStockId: 'prd_a', productStockGradeId: 'grd_a2', description: 'A — Two', units: 1, amountMinor: 500 },
        { productStockId: 'prd_b', productStockGradeId: 'grd_b1', description: 'B — One', units: 1, amountMinor: 700 },
      ],
    };

    // Act
    const recorded = await recordStoreCharge(db, charge);
    const twice = await Promise.all([recordStoreCharge(db, charge), recordStoreCharge(db, charge)]);
    const { opensOrderIn: _order, ...sameCustomer } = charge;
    const renewal = await recordStoreCharge(db, {
      ...sameCustomer,
      transactionId: 'tx-ledger-2',
      kind: 'renewal',
      lines: charge.lines.slice(2),
    });

    // Assess
    expect(recorded).toBe(true);
    expect(twice).toEqual([false, false]);
    expect(renewal).toBe(true);
    const day = 'day:2026-11-20';
    // A renewal is revenue, not a new order.
    expect(await figure(merchantAccountId, shopScope, day)).toMatchObject({ orders: 1, units: 5, revenueMinor: 3_900 });
    expect(await figure(merchantAccountId, productScope('prd_a'), day)).toMatchObject({
      orders: 1,
      units: 3,
      revenueMinor: 2_500,
    });
    expect(await figure(merchantAccountId, productScope('prd_b'), day)).toMatchObject({
      orders: 1,
      units: 2,
      revenueMinor: 1_400,
    });
    expect(await figure(merchantAccountId, gradeScope('grd_a2'), day)).toMatchObject({ orders: 1, units: 1, revenueMinor: 500 });
    const shopRows = await salesOf(merchantAccountId);
    expect(shopRows.map((row) => [row.transactionId, row.description, row.units, row.amountMinor])).toEqual([
      ['tx-ledger-1', 'A — One × 2, A — Two, B — One', 4, 3_200],
      ['tx-ledger-2', 'B — One', 1, 700],
    ]);
    expect((await salesOf(merchantAccountId, productScope('prd_a')))[0]).toMatchObject({
      description: 'A — One × 2, A — Two',
      amountMinor: 2_500,
    });
  });
});
