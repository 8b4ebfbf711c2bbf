import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shopScope } from '../../functions/lib/db/entities/store-figures';
import { getDb } from '../../functions/lib/db/service';
import { type PaymentGateway, PaymentGatewayUnavailable } from '../../functions/lib/payments/gateway';
import { useMerchantGatewayForTests } from '../../functions/lib/payments/merchant-gateway';
import { figureDayOf } from '../../functions/penpay/lib/sales-ledger';
import { routes } from '../../shared/routes';
import type { GradeView, ProductStockView } from '../../shared/schemas/merchant';
import type { RefundOrderBody } from '../../shared/schemas/store';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { advanceGatewayClock } from '../support/payments';
import { addGrade, addProduct, expectMessage, openShop, type Shop, shopGatewayOf } from '../support/penpay';

const suite = apiSuite();

interface Sold {
  shop: Shop;
  buyer: SignedInUser;
  invoiceId: string;
  large: GradeView;
  monthly: GradeView;
  mug: ProductStockView;
  newsletter: ProductStockView;
}

/**
 * A shop of its own (its figures are its sales alone) and a customer who bought from it: Mug —
 * Large at $15.00 × `mugs`, and, when asked, Newsletter — Monthly at $9.00 a month; with
 * `percentOff`, paid with a code for that much off everything (the first subscription charge too).
 */
async function sold(label: string, options: { mugs?: number; subscribe?: boolean; percentOff?: number } = {}): Promise<Sold> {
  const [shop, buyer] = await Promise.all([openShop(suite, label), suite.api.signIn(`${label}-buyer`)]);
  const [mug, newsletter] = await Promise.all([addProduct(suite, shop, 'Mug'), addProduct(suite, shop, 'Newsletter')]);
  const [large, monthly] = await Promise.all([
    addGrade(suite, shop, mug, 'Large', 1_500),
    addGrade(suite, shop, newsletter, 'Monthly', 900, { plan: 'monthly' }),
  ]);
  expectOk(
    await suite.api.call(routes.addCartItem, { body: { productStockGradeId: large.id, quantity: options.mugs ?? 2 }, as: buyer }),
  );
  if (options.subscribe) {
    expectOk(await suite.api.call(routes.addCartItem, { body: { productStockGradeId: monthly.id, quantity: 1 }, as: buyer }));
  }
  if (options.percentOff) {
    expectOk(
      await suite.api.call(routes.createDiscountCode, {
        body: {
          code: 'SAVE',
          kind: 'percent',
          value: options.percentOff,
          scope: { kind: 'shop' },
          oncePerCustomer: false,
          appliesTo: 'first',
        },
        as: shop.owner,
      }),
    );
  }
  const cart = await suite.api.call(routes.getCartInvoice, {
    query: { merchantAccountId: shop.merchant.id, ...(options.percentOff ? { discountCode: 'SAVE' } : {}) },
    as: buyer,
  });
  expectOk(cart);
  const invoiceId = cart.body.invoice?.id ?? '';
  expectOk(
    await suite.api.call(routes.fulfillStoreInvoice, {
      params: { invoiceId },
      body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
      as: buyer,
    }),
  );
  return { shop, buyer, invoiceId, large, monthly, mug, newsletter };
}

const refund = (order: Sold, body: RefundOrderBody, as: SignedInUser = order.shop.owner) =>
  suite.api.call(routes.refundStoreOrder, { params: { invoiceId: order.invoiceId }, body, as });
const refundsOf = (order: Sold, as: SignedInUser = order.shop.owner) =>
  suite.api.call(routes.listStoreOrderRefunds, { params: { invoiceId: order.invoiceId }, as });

/** Every refund and void the shops' gateways were asked for, by the transaction they were asked for. */
const gatewayCalls: { merchantAccountId: string; operation: 'refund' | 'void'; transactionId: string; amount?: string }[] = [];

/** Counts what reaches each shop's gateway from here on (the real local gateway still does it). */
async function countGatewayCalls(...orders: Sold[]): Promise<void> {
  const gateways = new Map<string, PaymentGateway>();
  for (const order of orders) gateways.set(order.shop.merchant.id, await shopGatewayOf(suite, order.shop.merchant.id));
  useMerchantGatewayForTests((merchantAccountId) => {
    const real = gateways.get(merchantAccountId);
    if (!real) throw new Error(`No gateway opened for ${merchantAccountId}`);
    return {
      ...real,
      refundTransaction: (request) => {
        gatewayCalls.push({
          merchantAccountId,
          operation: 'refund',
          transactionId: request.transactionId,
          amount: request.amount,
        });
        return real.refundTransaction(request);
      },
      voidTransaction: (id) => {
        gatewayCalls.push({ merchantAccountId, operation: 'void', transactionId: id });
        return real.voidTransaction(id);
      },
    };
  });
}

afterEach(() => {
  useMerchantGatewayForTests(undefined);
  gatewayCalls.length = 0;
});

async function saleOf(order: Sold) {
  const sale = await (await shopGatewayOf(suite, order.shop.merchant.id)).findSaleByOrderId(order.invoiceId);
  if (!sale) throw new Error(`No sale for ${order.invoiceId}`);
  return sale;
}

async function dashboardOf(order: Sold) {
  const answer = await suite.api.call(routes.showMerchantDashboard, { as: order.shop.owner });
  expectOk(answer);
  return answer.body.figures.totals;
}

/** The totals of a product's dashboard and of one of its grades', as the merchant reads them. */
async function lineDashboardsOf(order: Sold, product: ProductStockView, grade: GradeView) {
  const [productAnswer, gradeAnswer] = await Promise.all([
    suite.api.call(routes.showProductDashboard, { params: { productStockId: product.id }, as: order.shop.owner }),
    suite.api.call(routes.showGradeDashboard, {
      params: { productStockId: product.id, productStockGradeId: grade.id },
      as: order.shop.owner,
    }),
  ]);
  expectOk(productAnswer);
  expectOk(gradeAnswer);
  return { product: productAnswer.body.figures.totals, grade: gradeAnswer.body.figures.totals };
}

/** Revenue net of refunds and the refunds figure, as a dashboard's totals show them. */
const netOf = (revenueMinor: number, refunds: number, refundedMinor: number) => ({
  revenue: { amountMinor: revenueMinor },
  refunds: { count: refunds, amount: { amountMinor: refundedMinor } },
});

const shopFigure = async (order: Sold, period: string) =>
  (
    await getDb()
      .entities.storeFigure.get({ merchantAccountId: order.shop.merchant.id, scope: shopScope, period })
      .go({ consistent: true })
  ).data;

async function ordersOf(customer: SignedInUser) {
  const answer = await suite.api.call(routes.listMyOrders, { query: {}, as: customer });
  expectOk(answer);
  return answer.body.items;
}

async function unseenOf(user: SignedInUser) {
  const answer = await suite.api.call(routes.listUnseenNotifications, { as: user });
  expectOk(answer);
  return answer.body.items;
}

// Orders settle a day after they are paid, by the local gateway's clock: the orders refunded
// after settlement are paid first, the clock moves a day, then the ones voided before it are paid.
let settledWhole: Sold;
let settledTwice: Sold;
let settledItems: Sold;
let settledDiscounted: Sold;
let voided: Sold;
let unsettledPart: Sold;
let settledSplit: Sold;

beforeAll(async () => {
  [settledWhole, settledTwice, settledItems, settledDiscounted, settledSplit] = await Promise.all([
    sold('refund-settled'),
    sold('refund-twice'),
    sold('refund-items', { mugs: 1, subscribe: true }),
    sold('refund-discounted', { mugs: 1, subscribe: true, percentOff: 20 }),
    sold('refund-split', { mugs: 1, subscribe: true }),
  ]);
  await advanceGatewayClock(suite.runtime, 1);
  [voided, unsettledPart] = await Promise.all([sold('refund-void'), sold('refund-unsettled')]);
});

describe('refunding an order not settled yet', () => {
  it('voids it whole once under a double click: one void at the gateway, both clicks answered the same refund', async () => {
    // Prepare
    await countGatewayCalls(voided);

    // Act
    // As the refund dialog sends it: the refunds the merchant's screen knew (a double click repeats it).
    const [first, second] = await Promise.all([
      refund(voided, { reason: 'Sold out', knownRefunds: 0 }),
      refund(voided, { reason: 'Sold out', knownRefunds: 0 }),
    ]);

    // Assess
    expectOk(first);
    expectOk(second);
    expect(first.body.refund).toMatchObject({
      number: 1,
      status: 'succeeded',
      scope: 'whole',
      amount: { amountMinor: 3_000, currency: 'USD' },
      operations: [{ kind: 'void', amount: { amountMinor: 3_000, currency: 'USD' } }],
      reason: 'Sold out',
    });
    expect(second.body.refund.refundId).toBe(first.body.refund.refundId);
    expect(gatewayCalls.filter((call) => call.operation === 'void')).toHaveLength(1);
    expect(gatewayCalls.filter((call) => call.operation === 'refund')).toHaveLength(0);
    expect((await saleOf(voided)).status).toBe('voided');
    expect(first.body.order).toMatchObject({ refunded: { amountMinor: 3_000 }, left: { amountMinor: 0 } });
    // The sale counts on the gateway's day (a day ahead here, its clock moved), the refund on today's.
    expect(await dashboardOf(voided)).toMatchObject({ refunds: { count: 1, amount: { amountMinor: 3_000, currency: 'USD' } } });
    const saleDay = figureDayOf((await saleOf(voided)).createdAt);
    expect(await shopFigure(voided, saleDay)).toMatchObject({ revenueMinor: 3_000, orders: 1 });
  });

  it('tells the customer once: one refund receipt and one notification; the order shows the refund', async () => {
    // Act
    const [mails, notifications, orders] = await Promise.all([
      mailsTo(suite.runtime.mailDir, voided.buyer.email),
      unseenOf(voided.buyer),
      ordersOf(voided.buyer),
    ]);

    // Assess
    const refunds = mails.filter((mail) => (mail.headers.subject ?? '').startsWith('Your refund'));
    expect(refunds.map((mail) => mail.headers.subject)).toEqual(['Your refund from refund-void shop: $30.00']);
    expect(refunds[0]?.text).toContain('Reason: Sold out');
    expect(refunds[0]?.text).toContain('will not appear on your statement');
    expect(notifications.filter((notification) => notification.kind === 'store-refund')).toEqual([
      expect.objectContaining({ app: 'store', object: expect.objectContaining({ title: 'refund-void shop', detail: '$30.00' }) }),
    ]);
    expect(orders.find((order) => order.invoiceId === voided.invoiceId)).toMatchObject({
      refunded: { amountMinor: 3_000 },
      refunds: [expect.objectContaining({ status: 'succeeded', scope: 'whole', reason: 'Sold out' })],
    });
  });

  it('refuses more once nothing is left, naming what is left', async () => {
    // Act
    const again = await refund(voided, { reason: 'Once more', amountMinor: 100 });

    // Assess
    expectError(again, 409, 'REFUND_TOO_LARGE');
    expect(again.body).toMatchObject({ leftMinor: 0 });
    expectMessage(again, /Nothing is left to refund/);
  });

  it('refuses part of a payment not settled yet (only a whole void), and reserves nothing', async () => {
    // Prepare
    await countGatewayCalls(unsettledPart);

    // Act
    const part = await refund(unsettledPart, { reason: 'Scratched', amountMinor: 500 });
    const after = await refundsOf(unsettledPart);

    // Assess
    expectError(part, 409, 'PAYMENT_NOT_SETTLED');
    expectMessage(part, /has not settled yet/);
    expect(gatewayCalls).toEqual([]);
    expectOk(after);
    expect(after.body).toMatchObject({ refunded: { amountMinor: 0 }, left: { amountMinor: 3_000 }, refunds: [] });
  });
});

describe('refunding an order after it settled', () => {
  it('refunds part, then the whole refunds only what was left; then nothing more', async () => {
    // Prepare
    await countGatewayCalls(settledTwice);
    const before = await dashboardOf(settledTwice);

    // Act
    const part = await refund(settledTwice, { reason: 'Late delivery', amountMinor: 1_000 });
    const rest = await refund(settledTwice, { reason: 'Customer returned it' });
    const more = await refund(settledTwice, { reason: 'Again', amountMinor: 1 });

    // Assess
    expectOk(part);
    expect(part.body.refund).toMatchObject({ number: 1, operations: [{ kind: 'refund', amount: { amountMinor: 1_000 } }] });
    expectOk(rest);
    expect(rest.body.refund).toMatchObject({ number: 2, scope: 'whole', amount: { amountMinor: 2_000 } });
    expectError(more, 409, 'REFUND_TOO_LARGE');
    const sale = await saleOf(settledTwice);
    expect(gatewayCalls).toEqual([
      { merchantAccountId: settledTwice.shop.merchant.id, operation: 'refund', transactionId: sale.id, amount: '10.00' },
      { merchantAccountId: settledTwice.shop.merchant.id, operation: 'refund', transactionId: sale.id, amount: '20.00' },
    ]);
    expect(rest.body.order).toMatchObject({ refunded: { amountMinor: 3_000 }, left: { amountMinor: 0 } });
    expect(rest.body.order.lines.every((line) => line.refunded)).toBe(true);
    // Revenue is net of refunds; the refunds figure counts both.
    expect(before).toMatchObject({ orders: 1, revenue: { amountMinor: 3_000 }, refunds: { count: 0 } });
    expect(await dashboardOf(settledTwice)).toMatchObject({
      orders: 1,
      revenue: { amountMinor: 0 },
      refunds: { count: 2, amount: { amountMinor: 3_000 } },
    });
  });

  it('refuses an amount over what is left with the amount left, then refunds a repeated request once', async () => {
    // Prepare
    await countGatewayCalls(settledWhole);

    // Act
    const tooMuch = await refund(settledWhole, { reason: 'Broken', amountMinor: 3_001 });
    const [first, second] = await Promise.all([
      refund(settledWhole, { reason: 'Broken handle', amountMinor: 700, knownRefunds: 0 }),
      refund(settledWhole, { reason: 'Broken handle', amountMinor: 700, knownRefunds: 0 }),
    ]);
    // The same click arriving late (the screen still knew no refund) is the same refund, not another.
    const late = await refund(settledWhole, { reason: 'Broken handle', amountMinor: 700, knownRefunds: 0 });
    const listed = await refundsOf(settledWhole);

    // Assess
    expectError(tooMuch, 409, 'REFUND_TOO_LARGE');
    expect(tooMuch.body).toMatchObject({ leftMinor: 3_000 });
    expectMessage(tooMuch, /Only \$30\.00 is left to refund/);
    expectOk(first);
    expectOk(second);
    expectOk(late);
    expect(new Set([first.body.refund.refundId, second.body.refund.refundId, late.body.refund.refundId]).size).toBe(1);
    expect(gatewayCalls.filter((call) => call.operation === 'refund')).toHaveLength(1);
    expectOk(listed);
    expect(listed.body).toMatchObject({ refunded: { amountMinor: 700 }, left: { amountMinor: 2_300 } });
    expect(listed.body.refunds).toHaveLength(1);
  });

  it('refunds a subscription line item-wise and cancels its subscription when asked; the line cannot be refunded twice', async () => {
    // Prepare
    const listed = await refundsOf(settledItems);
    expectOk(listed);
    const line = listed.body.lines.find((entry) => entry.billing === 'subscription');

    // Act
    const refunded = await refund(settledItems, {
      reason: 'Did not want a subscription',
      lineIndexes: [line?.index ?? -1],
      cancelSubscription: true,
    });
    const again = await refund(settledItems, { reason: 'Again', productStockGradeIds: [settledItems.monthly.id] });
    const subscriptions = await suite.api.call(routes.listMySubscriptions, { as: settledItems.buyer });
    const order = (await getDb().entities.storeOrder.get({ invoiceId: settledItems.invoiceId }).go({ consistent: true })).data;

    // Assess
    expectOk(refunded);
    expect(refunded.body.refund).toMatchObject({
      scope: 'items',
      amount: { amountMinor: 900 },
      lines: [{ description: 'Newsletter — Monthly', quantity: 1, amount: { amountMinor: 900 } }],
      canceledSubscriptions: 1,
    });
    expectError(again, 409);
    expectMessage(again, /refunded already/);
    expectOk(subscriptions);
    expect(subscriptions.body.items.map((item) => item.status)).toEqual(['Canceled']);
    // What the digital-products side reads: the refunded total and the grades refunded item-wise.
    expect(order).toMatchObject({ refundedMinor: 900, refundedGradeIds: [settledItems.monthly.id] });
    const [receipt] = (await mailsTo(suite.runtime.mailDir, settledItems.buyer.email)).filter((mail) =>
      (mail.headers.subject ?? '').startsWith('Your refund'),
    );
    expect(receipt?.text).toContain('canceled with it');
  });
});

describe('refunding an order paid with a discount code', () => {
  it('returns what was paid, not the list price: a line less its saving, then the rest; the figures take off as much', async () => {
    // Prepare: $15.00 and $9.00 with 20% off, so $12.00 for the mug and $7.20 for the first month
    await countGatewayCalls(settledDiscounted);
    const listed = await refundsOf(settledDiscounted);
    expectOk(listed);
    const mugLine = listed.body.lines.find((line) => line.billing === 'once');

    // Act
    const mug = await refund(settledDiscounted, { reason: 'Chipped', lineIndexes: [mugLine?.index ?? -1] });
    const rest = await refund(settledDiscounted, { reason: 'Did not want the newsletter' });

    // Assess: each line as the refund dialog lists it, at what was paid for it
    expect(listed.body).toMatchObject({ total: { amountMinor: 1_920 }, left: { amountMinor: 1_920 } });
    expect(listed.body.lines.map((line) => [line.description, line.amount.amountMinor])).toEqual([
      ['Mug — Large', 1_200],
      ['Newsletter — Monthly', 720],
    ]);
    expectOk(mug);
    expect(mug.body.refund).toMatchObject({
      scope: 'items',
      amount: { amountMinor: 1_200 },
      lines: [{ description: 'Mug — Large', amount: { amountMinor: 1_200 } }],
    });
    expectOk(rest);
    expect(rest.body.refund).toMatchObject({ scope: 'whole', amount: { amountMinor: 720 } });
    expect(rest.body.order).toMatchObject({ refunded: { amountMinor: 1_920 }, left: { amountMinor: 0 } });
    expect(gatewayCalls.map((call) => call.amount)).toEqual(['12.00', '7.20']);
    // Revenue was counted net of the code's saving: refunded in full, none is left, and no more than was paid is counted refunded.
    expect(await dashboardOf(settledDiscounted)).toMatchObject({
      revenue: { amountMinor: 0 },
      discounts: { amountMinor: 480 },
      refunds: { count: 2, amount: { amountMinor: 1_920 } },
    });
  });
});

describe('the product and grade dashboards of a refunded order', () => {
  it('share a refund of an amount over the lines by what each has left, then a line and the whole return only what is left', async () => {
    // Prepare: Mug — Large $15.00 and Newsletter — Monthly $9.00, $24.00 in all.
    const { mug, newsletter, large, monthly } = settledSplit;
    const before = {
      mug: await lineDashboardsOf(settledSplit, mug, large),
      newsletter: await lineDashboardsOf(settledSplit, newsletter, monthly),
    };

    // Act: $10.01 off the order, then the newsletter's line, then the whole.
    const part = await refund(settledSplit, { reason: 'Late delivery', amountMinor: 1_001 });
    const afterPart = {
      shop: await dashboardOf(settledSplit),
      mug: await lineDashboardsOf(settledSplit, mug, large),
      newsletter: await lineDashboardsOf(settledSplit, newsletter, monthly),
    };
    const line = await refund(settledSplit, { reason: 'Unsubscribed', productStockGradeIds: [monthly.id] });
    const afterLine = await lineDashboardsOf(settledSplit, newsletter, monthly);
    const rest = await refund(settledSplit, { reason: 'Returned' });
    const afterRest = {
      shop: await dashboardOf(settledSplit),
      mug: await lineDashboardsOf(settledSplit, mug, large),
      newsletter: await lineDashboardsOf(settledSplit, newsletter, monthly),
    };

    // Assess
    expect(before.mug.product).toMatchObject(netOf(1_500, 0, 0));
    expect(before.newsletter.grade).toMatchObject(netOf(900, 0, 0));
    expectOk(part);
    // $10.01 in proportion to $15.00 and $9.00 is $6.25 and $3.75, and the cent left over goes to the larger line.
    expect(afterPart.mug.product).toMatchObject(netOf(874, 1, 626));
    expect(afterPart.mug.grade).toMatchObject(netOf(874, 1, 626));
    expect(afterPart.newsletter.product).toMatchObject(netOf(525, 1, 375));
    expect(afterPart.newsletter.grade).toMatchObject(netOf(525, 1, 375));
    expect(afterPart.shop).toMatchObject(netOf(1_399, 1, 1_001));
    // The line returns what it had left, not its price again.
    expectOk(line);
    expect(line.body.refund).toMatchObject({ scope: 'items', amount: { amountMinor: 525 } });
    expect(afterLine.product).toMatchObject(netOf(0, 2, 900));
    expect(afterLine.grade).toMatchObject(netOf(0, 2, 900));
    expectOk(rest);
    expect(rest.body.refund).toMatchObject({ scope: 'whole', amount: { amountMinor: 874 } });
    expect(rest.body.order).toMatchObject({ refunded: { amountMinor: 2_400 }, left: { amountMinor: 0 } });
    expect(afterRest.mug.product).toMatchObject(netOf(0, 2, 1_500));
    expect(afterRest.mug.grade).toMatchObject(netOf(0, 2, 1_500));
    expect(afterRest.newsletter.product).toMatchObject(netOf(0, 2, 900));
    expect(afterRest.shop).toMatchObject(netOf(0, 3, 2_400));
  });
});

describe("refunds of someone else's order", () => {
  it('answers 404 to another merchant and to the customer, and refunds nothing', async () => {
    // Prepare
    const other = await openShop(suite, 'refund-other');
    await countGatewayCalls(settledWhole);

    // Act
    const [byMerchant, listedByMerchant, byCustomer, listedByCustomer] = await Promise.all([
      refund(settledWhole, { reason: 'Not mine' }, other.owner),
      refundsOf(settledWhole, other.owner),
      refund(settledWhole, { reason: 'I want my money' }, settledWhole.buyer),
      refundsOf(settledWhole, settledWhole.buyer),
    ]);

    // Assess
    expectError(byMerchant, 404);
    expectError(listedByMerchant, 404);
    expectError(byCustomer, 404);
    expectError(listedByCustomer, 404);
    expect(gatewayCalls).toEqual([]);
  });

  it('answers 400 for a line the order does not have, and for an amount and lines at once', async () => {
    // Act
    const noLine = await refund(settledWhole, { reason: 'Wrong line', lineIndexes: [7] });
    const both = await refund(settledWhole, { reason: 'Both', amountMinor: 100, lineIndexes: [0] });

    // Assess
    expectError(noLine, 400);
    expectMessage(noLine, /no line 8/);
    expectError(both, 400);
  });
});

describe('a refund whose answer was lost', () => {
  it('is found at the gateway by its id when retried, and not refunded again', async () => {
    // Prepare: the gateway refunds, then the answer is lost on the way back
    const order = await sold('refund-lost');
    await advanceGatewayClock(suite.runtime, 1);
    const real = await shopGatewayOf(suite, order.shop.merchant.id);
    let refunds = 0;
    useMerchantGatewayForTests(() => ({
      ...real,
      refundTransaction: async (request) => {
        refunds += 1;
        await real.refundTransaction(request);
        throw new PaymentGatewayUnavailable(new Error('socket hang up'));
      },
    }));
    const lost = await refund(order, { reason: 'Damaged', amountMinor: 1_200, knownRefunds: 0 });
    const meanwhile = await refundsOf(order);
    useMerchantGatewayForTests(() => ({
      ...real,
      refundTransaction: async (request) => {
        refunds += 1;
        return real.refundTransaction(request);
      },
    }));

    // Act
    const retried = await refund(order, { reason: 'Damaged', amountMinor: 1_200, knownRefunds: 0 });

    // Assess
    expectError(lost, 503);
    expectOk(meanwhile);
    expect(meanwhile.body).toMatchObject({ refunded: { amountMinor: 1_200 }, refunds: [{ status: 'pending' }] });
    expectOk(retried);
    expect(retried.body.refund).toMatchObject({ number: 1, status: 'succeeded', amount: { amountMinor: 1_200 } });
    expect(retried.body.order).toMatchObject({ refunded: { amountMinor: 1_200 }, left: { amountMinor: 1_800 } });
    expect(refunds).toBe(1);
    const receipts = (await mailsTo(suite.runtime.mailDir, order.buyer.email)).filter((mail) =>
      (mail.headers.subject ?? '').startsWith('Your refund'),
    );
    expect(receipts).toHaveLength(1);
  });

  it('releases the reservation and says why when the gateway refuses, keeping the failed refund on the order', async () => {
    // Prepare: the sale looks settled when the refund is planned, but the gateway has not settled it (it refuses a refund)
    const order = await sold('refund-refused');
    const real = await shopGatewayOf(suite, order.shop.merchant.id);
    useMerchantGatewayForTests(() => ({
      ...real,
      findTransaction: async (id) => ({ ...(await real.findTransaction(id)), status: 'settled' }),
    }));

    // Act
    const refused = await refund(order, { reason: 'Too early', amountMinor: 500, knownRefunds: 0 });
    const listed = await refundsOf(order);

    // Assess
    expectError(refused, 409, 'REFUND_REFUSED');
    expectMessage(refused, /not settled yet/);
    expectOk(listed);
    expect(listed.body).toMatchObject({ refunded: { amountMinor: 0 }, left: { amountMinor: 3_000 } });
    expect(listed.body.refunds).toEqual([
      expect.objectContaining({ number: 1, status: 'failed', failure: expect.stringMatching(/not settled yet/) }),
    ]);
    expect((await saleOf(order)).status).toBe('submitted_for_settlement');
  });
});
