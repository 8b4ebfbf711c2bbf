import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedNotification } from '../../infra/local/payment-gateway/webhooks';
import { shopScope } from '../../functions/lib/db/entities/store-figures';
import { getDb } from '../../functions/lib/db/service';
import { readFigures } from '../../functions/penpay/lib/dashboard';
import { figureDayOf } from '../../functions/penpay/lib/sales-ledger';
import { PaymentGatewayUnavailable, type PaymentGateway, STORE_DISCOUNT_ID } from '../../functions/lib/payments/gateway';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { useMerchantGatewayForTests } from '../../functions/lib/payments/merchant-gateway';
import * as storeRoutes from '../../shared/routes/store';
import { routes } from '../../shared/routes';
import type { GradeView } from '../../shared/schemas/merchant';
import type { CreateDiscountCodeBody } from '../../shared/schemas/discounts';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { advanceGatewayClock, setGatewayDiscount, settleGatewayWebhooks } from '../support/payments';
import { addGrade, addProduct, expectMessage, openShop, type Shop, shopGatewayOf, shopKeysOf } from '../support/penpay';

const suite = apiSuite();

interface StockedShop {
  shop: Shop;
  /** Mug — Large, $15.00 once. */
  large: GradeView;
  /** Mug — Small, $10.00 once. */
  small: GradeView;
  /** Poster — A2, $20.00 once. */
  poster: GradeView;
  /** Newsletter — Monthly, $9.00 a month. */
  monthly: GradeView;
}

async function stockedShop(label: string): Promise<StockedShop> {
  const shop = await openShop(suite, label);
  const [mug, poster, newsletter] = await Promise.all([
    addProduct(suite, shop, 'Mug'),
    addProduct(suite, shop, 'Poster'),
    addProduct(suite, shop, 'Newsletter'),
  ]);
  const [large, small, a2, monthly] = await Promise.all([
    addGrade(suite, shop, mug, 'Large', 1_500),
    addGrade(suite, shop, mug, 'Small', 1_000),
    addGrade(suite, shop, poster, 'A2', 2_000),
    addGrade(suite, shop, newsletter, 'Monthly', 900, { plan: 'monthly' }),
  ]);
  return { shop, large, small, poster: a2, monthly };
}

type CodeRequest = Partial<CreateDiscountCodeBody> & Pick<CreateDiscountCodeBody, 'code' | 'kind' | 'value'>;

const createCode = (shop: Shop, body: CodeRequest) =>
  suite.api.call(routes.createDiscountCode, { body: body as CreateDiscountCodeBody, as: shop.owner });

async function code(shop: Shop, body: CodeRequest) {
  const answer = await createCode(shop, body);
  expectOk(answer);
  return answer.body;
}

async function fill(customer: SignedInUser, lines: readonly [GradeView, number][]) {
  for (const [grade, quantity] of lines) {
    expectOk(await suite.api.call(routes.addCartItem, { body: { productStockGradeId: grade.id, quantity }, as: customer }));
  }
}

const cartWith = (customer: SignedInUser, shop: Shop, discountCode?: string) =>
  suite.api.call(routes.getCartInvoice, {
    query: { merchantAccountId: shop.merchant.id, ...(discountCode ? { discountCode } : {}) },
    as: customer,
  });

async function invoiceWith(customer: SignedInUser, shop: Shop, discountCode?: string) {
  const answer = await cartWith(customer, shop, discountCode);
  expectOk(answer);
  if (!answer.body.invoice) throw new Error('The cart has no invoice');
  return answer.body.invoice;
}

const fulfil = (customer: SignedInUser, invoiceId: string, nonce = 'fake-valid-visa-nonce') =>
  suite.api.call(routes.fulfillStoreInvoice, { params: { invoiceId }, body: { paymentMethodNonce: nonce }, as: customer });

const storedCode = async (merchantAccountId: string, text: string) =>
  (await getDb().entities.discountCode.get({ merchantAccountId, codeKey: text.toLowerCase() }).go({ consistent: true })).data;

let stocked: StockedShop;
let otherShop: StockedShop;

beforeAll(async () => {
  [stocked, otherShop] = await Promise.all([stockedShop('discounts'), stockedShop('other-discounts')]);
});

describe('a merchant’s discount codes', () => {
  it('creates, lists and deactivates codes; a code is unique per shop whatever its case', async () => {
    // Prepare
    const created = await code(stocked.shop, { code: 'Welcome10', kind: 'percent', value: 10 });

    // Act
    const again = await createCode(stocked.shop, { code: 'WELCOME10', kind: 'amount', value: 500 });
    const sameInOtherShop = await createCode(otherShop.shop, { code: 'welcome10', kind: 'percent', value: 10 });
    const listed = await suite.api.call(routes.listMyDiscountCodes, { as: stocked.shop.owner });
    const deactivated = await suite.api.call(routes.deactivateDiscountCode, {
      params: { code: 'welcome10' },
      as: stocked.shop.owner,
    });

    // Assess
    expect(created).toMatchObject({ code: 'Welcome10', kind: 'percent', value: 10, usesCount: 0, active: true, currency: 'USD' });
    expectError(again, 409);
    expectMessage(again, /has a code WELCOME10 already \(codes do not depend on case\)/);
    expectOk(sameInOtherShop);
    expectOk(listed);
    expect(listed.body.items.map((item) => item.code)).toContain('Welcome10');
    expectOk(deactivated);
    expect(deactivated.body.active).toBe(false);
  });

  it('answers 404 for another shop’s code, and 400 for another shop’s grade in a code’s scope', async () => {
    // Prepare
    await code(otherShop.shop, { code: 'THEIRS', kind: 'percent', value: 50 });

    // Act
    const deactivateTheirs = await suite.api.call(routes.deactivateDiscountCode, {
      params: { code: 'THEIRS' },
      as: stocked.shop.owner,
    });
    const foreignScope = await createCode(stocked.shop, {
      code: 'SNEAKY',
      kind: 'percent',
      value: 50,
      scope: { kind: 'grades', ids: [otherShop.large.id] },
    });

    // Assess
    expectError(deactivateTheirs, 404);
    expect((await storedCode(otherShop.shop.merchant.id, 'THEIRS'))?.active).toBe(true);
    expectError(foreignScope, 400);
    expectMessage(foreignScope, /No such grade in your shop/);
  });
});

describe('pricing a cart with a code', () => {
  it('takes a percentage off the chosen grades only, on the server, and charges that', async () => {
    // Prepare
    await code(stocked.shop, { code: 'LARGE20', kind: 'percent', value: 20, scope: { kind: 'grades', ids: [stocked.large.id] } });
    const buyer = await suite.api.signIn('percent-buyer');
    await fill(buyer, [
      [stocked.large, 2],
      [stocked.small, 1],
    ]);

    // Act
    const invoice = await invoiceWith(buyer, stocked.shop, 'large20');
    const paid = await fulfil(buyer, invoice.id);

    // Assess: 20% of 2 × $15.00 off the large mugs only.
    expect(invoice.lines.map((line) => [line.description, line.discount.amountMinor])).toEqual([
      ['Mug — Large', 600],
      ['Mug — Small', 0],
    ]);
    expect(invoice.total.amountMinor).toBe(3_000 + 1_000 - 600);
    expect(invoice.discount).toEqual({ code: 'LARGE20', saving: { amountMinor: 600, currency: 'USD' }, appliesTo: 'first' });
    expectOk(paid);
    const sale = await (await shopGatewayOf(suite, stocked.shop.merchant.id)).findSaleByOrderId(invoice.id);
    expect(sale?.amount).toBe('34.00');
    expect((await storedCode(stocked.shop.merchant.id, 'LARGE20'))?.usesCount).toBe(1);
  });

  it('takes an amount off the chosen products, and the order, the receipt and the dashboard show the discount', async () => {
    // Prepare
    const shop = await stockedShop('amount');
    await code(shop.shop, {
      code: 'POSTER5',
      kind: 'amount',
      value: 500,
      scope: { kind: 'products', ids: [shop.poster.productStockId] },
    });
    const buyer = await suite.api.signIn('amount-buyer');
    await fill(buyer, [
      [shop.poster, 1],
      [shop.small, 1],
    ]);

    // Act
    const invoice = await invoiceWith(buyer, shop.shop, 'POSTER5');
    expectOk(await fulfil(buyer, invoice.id));
    const orders = await suite.api.call(routes.listMyOrders, { as: buyer });
    const dashboard = await suite.api.call(routes.showMerchantDashboard, { as: shop.shop.owner });
    const receipts = await mailsTo(suite.runtime.mailDir, buyer.email);

    // Assess
    expect(invoice.total.amountMinor).toBe(2_000 - 500 + 1_000);
    expectOk(orders);
    expect(orders.body.items[0]).toMatchObject({
      invoiceId: invoice.id,
      total: { amountMinor: 2_500 },
      discount: { code: 'POSTER5', saving: { amountMinor: 500, currency: 'USD' } },
    });
    expectOk(dashboard);
    expect(dashboard.body.figures.totals).toMatchObject({
      revenue: { amountMinor: 2_500 },
      discounts: { amountMinor: 500, currency: 'USD' },
    });
    expect(receipts.map((mail) => mail.headers.subject)).toEqual(['Your receipt from amount shop: $25.00']);
    expect(receipts[0]?.text).toContain('$5.00 off with POSTER5');
  });

  it('refuses, with the reason, a code that is unknown, another shop’s, expired, not started or not for these items', async () => {
    // Prepare
    const day = 24 * 60 * 60 * 1000;
    await Promise.all([
      code(stocked.shop, { code: 'OLD', kind: 'percent', value: 10, endsAt: new Date(Date.now() + 1_500).toISOString() }),
      code(stocked.shop, { code: 'LATER', kind: 'percent', value: 10, startsAt: new Date(Date.now() + 10 * day).toISOString() }),
      code(stocked.shop, { code: 'POSTERS', kind: 'percent', value: 10, scope: { kind: 'grades', ids: [stocked.poster.id] } }),
      code(otherShop.shop, { code: 'ELSEWHERE', kind: 'percent', value: 10 }),
    ]);
    const buyer = await suite.api.signIn('refused-buyer');
    await fill(buyer, [[stocked.large, 1]]);
    await new Promise((resolve) => setTimeout(resolve, 1_600));

    // Act
    const [unknown, foreign, expired, notYet, notForThese] = await Promise.all([
      cartWith(buyer, stocked.shop, 'NOPE'),
      cartWith(buyer, stocked.shop, 'ELSEWHERE'),
      cartWith(buyer, stocked.shop, 'OLD'),
      cartWith(buyer, stocked.shop, 'LATER'),
      cartWith(buyer, stocked.shop, 'POSTERS'),
    ]);

    // Assess
    for (const answer of [unknown, foreign, expired, notYet, notForThese]) expectError(answer, 400, 'DISCOUNT_CODE_REFUSED');
    expectMessage(unknown, /no discount code NOPE at this shop/);
    expectMessage(foreign, /no discount code ELSEWHERE at this shop/);
    expectMessage(expired, /OLD has expired/);
    expectMessage(notYet, /LATER is not valid yet/);
    expectMessage(notForThese, /POSTERS is not for the items in your cart/);
    // The cart itself still prices without a code.
    expect((await invoiceWith(buyer, stocked.shop)).total.amountMinor).toBe(1_500);
  });
});

describe('counting uses', () => {
  it('holds a once-per-customer code to one paid use per customer', async () => {
    // Prepare
    await code(stocked.shop, { code: 'FIRSTTIME', kind: 'amount', value: 300, oncePerCustomer: true });
    const [buyer, other] = await Promise.all([suite.api.signIn('once-buyer'), suite.api.signIn('once-other')]);
    await fill(buyer, [[stocked.small, 1]]);
    await fill(other, [[stocked.small, 1]]);
    const first = await invoiceWith(buyer, stocked.shop, 'FIRSTTIME');

    // Act
    expectOk(await fulfil(buyer, first.id));
    await fill(buyer, [[stocked.small, 1]]);
    const again = await cartWith(buyer, stocked.shop, 'FIRSTTIME');
    const otherInvoice = await invoiceWith(other, stocked.shop, 'FIRSTTIME');

    // Assess
    expect(first.total.amountMinor).toBe(700);
    expectError(again, 409, 'DISCOUNT_CODE_USED_UP');
    expectMessage(again, /used the code FIRSTTIME already: it is once per customer/);
    expect(otherInvoice.total.amountMinor).toBe(700);
  });

  it('refuses at payment, nothing charged, a once-per-customer code used by the same customer on another invoice meanwhile', async () => {
    // Prepare
    await code(stocked.shop, { code: 'ONCEMORE', kind: 'amount', value: 200, oncePerCustomer: true });
    const buyer = await suite.api.signIn('once-race');
    await fill(buyer, [[stocked.small, 1]]);
    const withCode = await invoiceWith(buyer, stocked.shop, 'ONCEMORE');
    // Paid another way: the customer's use is claimed by hand, as a paid invoice of another cart would.
    await getDb()
      .entities.discountUse.create({
        merchantAccountId: stocked.shop.merchant.id,
        codeKey: 'oncemore',
        holder: `customer#${buyer.userId}`,
        invoiceId: 'another-invoice-0001',
        customerId: buyer.userId,
        createdAt: new Date().toISOString(),
      })
      .go();

    // Act
    const refused = await fulfil(buyer, withCode.id);

    // Assess
    expectError(refused, 409, 'DISCOUNT_CODE_USED_UP');
    expectMessage(refused, /once per customer, so the price is \$10\.00\. Nothing was charged/);
    expect(await (await shopGatewayOf(suite, stocked.shop.merchant.id)).findSaleByOrderId(withCode.id)).toBeNull();
    expect((await storedCode(stocked.shop.merchant.id, 'ONCEMORE'))?.usesCount).toBe(0);
  });

  it('gives exactly N discounted payments when 20 customers pay at once; the others are refused before any charge', async () => {
    // Prepare: 20 customers, each with an invoice priced with a 3-use code (none is used yet).
    const limit = 3;
    await code(stocked.shop, { code: 'THREE', kind: 'percent', value: 50, maxUses: limit });
    const customers = await Promise.all(Array.from({ length: 20 }, (_, index) => suite.api.signIn(`rush-${index}`)));
    await Promise.all(customers.map((customer) => fill(customer, [[stocked.large, 1]])));
    const invoices = await Promise.all(customers.map((customer) => invoiceWith(customer, stocked.shop, 'THREE')));
    expect(invoices.every((invoice) => invoice.total.amountMinor === 750)).toBe(true);

    // Act
    const answers = await Promise.all(customers.map((customer, index) => fulfil(customer, invoices[index]?.id ?? '')));

    // Assess: three paid at $7.50, seventeen told the price without the code, nothing charged for them.
    const gateway = await shopGatewayOf(suite, stocked.shop.merchant.id);
    const sales = await Promise.all(invoices.map((invoice) => gateway.findSaleByOrderId(invoice.id)));
    const paid = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(paid).toHaveLength(limit);
    expect(refused).toHaveLength(20 - limit);
    for (const answer of refused) {
      expectError(answer, 409, 'DISCOUNT_CODE_USED_UP');
      expectMessage(answer, /This code has just been used up: the price without it is \$15\.00\. Nothing was charged/);
    }
    expect(sales.filter((sale) => sale !== null).map((sale) => sale?.amount)).toEqual(['7.50', '7.50', '7.50']);
    expect((await storedCode(stocked.shop.merchant.id, 'THREE'))?.usesCount).toBe(limit);

    // Act 2: a refused customer asks for the code again, then pays without it.
    const refusedIndex = answers.findIndex((answer) => answer.status === 409);
    const customer = customers[refusedIndex] as SignedInUser;
    const withCodeAgain = await cartWith(customer, stocked.shop, 'THREE');
    const fullPrice = await invoiceWith(customer, stocked.shop);
    const paidFull = await fulfil(customer, fullPrice.id);

    // Assess 2
    expectError(withCodeAgain, 409, 'DISCOUNT_CODE_USED_UP');
    expectMessage(withCodeAgain, /THREE has been used up/);
    expect(fullPrice.total.amountMinor).toBe(1_500);
    expectOk(paidFull);
    expect((await gateway.findSaleByOrderId(fullPrice.id))?.amount).toBe('15.00');
  });

  it('counts one use for a double click, and refuses at payment a code deactivated since the invoice was priced', async () => {
    // Prepare
    await Promise.all([
      code(stocked.shop, { code: 'TWICE', kind: 'amount', value: 100, maxUses: 5 }),
      code(stocked.shop, { code: 'WITHDRAWN', kind: 'amount', value: 100 }),
    ]);
    const [clicker, late] = await Promise.all([suite.api.signIn('double-clicker'), suite.api.signIn('late-payer')]);
    await Promise.all([fill(clicker, [[stocked.small, 1]]), fill(late, [[stocked.small, 1]])]);
    const [clicked, lateInvoice] = await Promise.all([
      invoiceWith(clicker, stocked.shop, 'TWICE'),
      invoiceWith(late, stocked.shop, 'WITHDRAWN'),
    ]);
    expectOk(await suite.api.call(routes.deactivateDiscountCode, { params: { code: 'withdrawn' }, as: stocked.shop.owner }));

    // Act
    const [first, second] = await Promise.all([fulfil(clicker, clicked.id), fulfil(clicker, clicked.id)]);
    const refused = await fulfil(late, lateInvoice.id);

    // Assess
    expectOk(first);
    expectOk(second);
    expect((await storedCode(stocked.shop.merchant.id, 'TWICE'))?.usesCount).toBe(1);
    expectError(refused, 400, 'DISCOUNT_CODE_REFUSED');
    expectMessage(refused, /WITHDRAWN cannot be used any more: the price without it is \$10\.00/);
    expect(await (await shopGatewayOf(suite, stocked.shop.merchant.id)).findSaleByOrderId(lateInvoice.id)).toBeNull();
  });

  it('gives the use back when the card is declined, so the code can still be used', async () => {
    // Prepare
    await code(stocked.shop, { code: 'ONLYONE', kind: 'amount', value: 100, maxUses: 1 });
    const buyer = await suite.api.signIn('declined-buyer');
    await fill(buyer, [[stocked.small, 1]]);
    const invoice = await invoiceWith(buyer, stocked.shop, 'ONLYONE');

    // Act
    const declined = await fulfil(buyer, invoice.id, 'fake-processor-declined-visa-nonce');
    const countAfterDecline = (await storedCode(stocked.shop.merchant.id, 'ONLYONE'))?.usesCount;
    const paid = await fulfil(buyer, invoice.id);

    // Assess
    expect(declined.status).toBe(402);
    expect(countAfterDecline).toBe(0);
    expectOk(paid);
    expect((await storedCode(stocked.shop.merchant.id, 'ONLYONE'))?.usesCount).toBe(1);
  });
});

describe('a subscription priced with a code the gateway refuses or does not answer', () => {
  it('gives the use back when the gateway refuses the subscription outright (the shop deleted its Control Panel discount): another customer gets the code', async () => {
    // Prepare: a one-use code on the newsletter, and the shop's Braintree without its discount.
    const shop = await stockedShop('refused-discount');
    await code(shop.shop, { code: 'FIRSTONE', kind: 'percent', value: 50, maxUses: 1, appliesTo: 'first' });
    const [refusedBuyer, nextBuyer] = await Promise.all([
      suite.api.signIn('refused-sub-buyer'),
      suite.api.signIn('next-sub-buyer'),
    ]);
    await Promise.all([fill(refusedBuyer, [[shop.monthly, 1]]), fill(nextBuyer, [[shop.monthly, 1]])]);
    const refusedInvoice = await invoiceWith(refusedBuyer, shop.shop, 'FIRSTONE');
    const { merchantId } = await shopKeysOf(suite, shop.shop.merchant.id);
    await setGatewayDiscount(suite.runtime, merchantId, STORE_DISCOUNT_ID, false);

    // Act
    const refused = await fulfil(refusedBuyer, refusedInvoice.id);
    const usesAfterRefusal = (await storedCode(shop.shop.merchant.id, 'FIRSTONE'))?.usesCount;
    await setGatewayDiscount(suite.runtime, merchantId, STORE_DISCOUNT_ID, true);
    const nextInvoice = await invoiceWith(nextBuyer, shop.shop, 'FIRSTONE');
    const nextPaid = await fulfil(nextBuyer, nextInvoice.id);

    // Assess: nothing charged for the refused order, the one use went to the next customer.
    expectError(refused, 500);
    expect(usesAfterRefusal).toBe(0);
    const gateway = await shopGatewayOf(suite, shop.shop.merchant.id);
    await expect(gateway.findSubscription(`s_${refusedInvoice.id}_1`)).rejects.toThrow(/not known/);
    expectOk(nextPaid);
    expect(nextInvoice.total.amountMinor).toBe(450);
    expect((await gateway.findSubscription(`s_${nextInvoice.id}_1`)).transactions.map((charge) => charge.amount)).toEqual([
      '4.50',
    ]);
    expect((await storedCode(shop.shop.merchant.id, 'FIRSTONE'))?.usesCount).toBe(1);
  });

  it('keeps the use claimed when the subscription call times out: another customer is told it is used up', async () => {
    // Prepare: a one-use code; the shop's gateway never answers the subscription (nothing reaches it).
    const shop = await stockedShop('timeout-discount');
    await code(shop.shop, { code: 'SLOWONE', kind: 'percent', value: 50, maxUses: 1, appliesTo: 'first' });
    const [buyer, other] = await Promise.all([suite.api.signIn('timeout-sub-buyer'), suite.api.signIn('timeout-sub-other')]);
    await Promise.all([fill(buyer, [[shop.monthly, 1]]), fill(other, [[shop.monthly, 1]])]);
    const invoice = await invoiceWith(buyer, shop.shop, 'SLOWONE');
    const real = await shopGatewayOf(suite, shop.shop.merchant.id);
    const timesOut: PaymentGateway = {
      ...real,
      environment: real.environment,
      createSubscription: () => Promise.reject(new PaymentGatewayUnavailable(new Error('timed out after 10000 ms'))),
    };
    useMerchantGatewayForTests((merchantAccountId) => {
      if (merchantAccountId !== shop.shop.merchant.id) throw new Error(`Unexpected shop ${merchantAccountId}`);
      return timesOut;
    });

    // Act
    let timedOut: Awaited<ReturnType<typeof fulfil>>;
    try {
      timedOut = await fulfil(buyer, invoice.id);
    } finally {
      useMerchantGatewayForTests(undefined);
    }
    const usesInDoubt = (await storedCode(shop.shop.merchant.id, 'SLOWONE'))?.usesCount;
    const otherTries = await cartWith(other, shop.shop, 'SLOWONE');
    const resumed = await fulfil(buyer, invoice.id);

    // Assess: in doubt, the use stays; the resumed payment finds nothing made, charges once, and counts nothing more.
    expectError(timedOut, 503);
    expect(usesInDoubt).toBe(1);
    expectError(otherTries, 409, 'DISCOUNT_CODE_USED_UP');
    expectOk(resumed);
    expect((await real.findSubscription(`s_${invoice.id}_1`)).transactions.map((charge) => charge.amount)).toEqual(['4.50']);
    expect((await storedCode(shop.shop.merchant.id, 'SLOWONE'))?.usesCount).toBe(1);
  });
});

describe('a subscription with a first-charge discount', () => {
  it('charges less once, then the full price at renewal (a Braintree discount on the subscription)', async () => {
    // Prepare
    const shop = await stockedShop('sub-discount');
    await code(shop.shop, {
      code: 'HALFFIRST',
      kind: 'percent',
      value: 50,
      scope: { kind: 'grades', ids: [shop.monthly.id] },
      appliesTo: 'first',
    });
    const buyer = await suite.api.signIn('sub-discount-buyer');
    await fill(buyer, [[shop.monthly, 1]]);
    const invoice = await invoiceWith(buyer, shop.shop, 'HALFFIRST');

    // Act
    expectOk(await fulfil(buyer, invoice.id));
    const gateway = await shopGatewayOf(suite, shop.shop.merchant.id);
    const started = await gateway.findSubscription(`s_${invoice.id}_1`);
    await advanceGatewayClock(suite.runtime, 31);
    const renewed = await gateway.findSubscription(`s_${invoice.id}_1`);

    // Assess
    expect(invoice.total.amountMinor).toBe(450);
    expect(started.price).toBe('9.00');
    expect(started.transactions.map((transaction) => transaction.amount)).toEqual(['4.50']);
    expect(renewed.transactions.map((transaction) => transaction.amount)).toEqual(['9.00', '4.50']);
    expect(renewed.discounts ?? []).toEqual([]);
  });

  it('takes the discount off every charge when the code says so', async () => {
    // Prepare
    const shop = await stockedShop('sub-every');
    await code(shop.shop, { code: 'ALWAYS1', kind: 'amount', value: 100, appliesTo: 'every' });
    const buyer = await suite.api.signIn('sub-every-buyer');
    await fill(buyer, [[shop.monthly, 1]]);
    const invoice = await invoiceWith(buyer, shop.shop, 'ALWAYS1');

    // Act
    expectOk(await fulfil(buyer, invoice.id));
    await advanceGatewayClock(suite.runtime, 31);
    const renewed = await (await shopGatewayOf(suite, shop.shop.merchant.id)).findSubscription(`s_${invoice.id}_1`);

    // Assess
    expect(renewed.transactions.map((transaction) => transaction.amount)).toEqual(['8.00', '8.00']);
    expect(renewed.discounts).toEqual([{ id: 'penpay-discount-code', amount: '1.00', numberOfBillingCycles: null }]);
  });
});

describe("a renewal's discount on the dashboards", () => {
  afterEach(() => useMerchantGatewayForTests(undefined));

  /**
   * "Discounts given" as the shop's dashboard reads it (readFigures, its 30 days ending today), on
   * the gateway's date: its clock has moved past ours in this file, and charges count on its days.
   */
  const discountsGiven = async (shop: Shop) => {
    const clock = (await (await fetch(`${suite.runtime.paymentGatewayEndpoint}/__control/clock`)).json()) as { now: string };
    const figures = await readFigures(
      getDb(),
      { merchantAccountId: shop.merchant.id, currency: 'USD' },
      shopScope,
      new Date(clock.now),
    );
    return figures.totals.discounts.amountMinor;
  };

  const postWebhook = (merchantAccountId: string, form: { bt_signature: string; bt_payload: string }) =>
    fetch(`${suite.runtime.url}${storeRoutes.receiveMerchantWebhook.path.replace('{merchantAccountId}', merchantAccountId)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });

  /** Another shop's own gateway, as it is without the test's stand-in: its renewals' webhooks go on as usual. */
  const ownGatewayOf = (merchantAccountId: string): PaymentGateway => {
    const opened = shopKeysOf(suite, merchantAccountId).then((keys) =>
      createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint, keys),
    );
    return new Proxy({ environment: 'local' } as PaymentGateway, {
      get: (target, name) =>
        name === 'environment' || typeof name !== 'string' || name === 'then'
          ? Reflect.get(target, name)
          : async (...args: unknown[]) => {
              const gateway = (await opened) as unknown as Record<string, (...values: unknown[]) => Promise<unknown>>;
              return gateway[name]?.(...args);
            },
    });
  };

  it("counts a renewal's discount in Discounts given once, when its webhook arrives twice at once", async () => {
    // Prepare: $1.00 off every charge of Newsletter — Monthly ($9.00), and a customer subscribed with it.
    const shop = await stockedShop('renewal-discount');
    await code(shop.shop, { code: 'EVERYMONTH', kind: 'amount', value: 100, appliesTo: 'every' });
    const buyer = await suite.api.signIn('renewal-discount-buyer');
    await fill(buyer, [[shop.monthly, 1]]);
    const invoice = await invoiceWith(buyer, shop.shop, 'EVERYMONTH');
    expectOk(await fulfil(buyer, invoice.id));
    const subscriptionId = `s_${invoice.id}_1`;
    // The checkout's own webhooks, sent after its answer, handled first: one still in flight holds
    // the real gateway, and would see the renewal once the clock moves.
    await settleGatewayWebhooks(suite.runtime);
    const atCheckout = await discountsGiven(shop.shop);
    // While the month passes, the shop's route sees the gateway without the renewal yet, so the
    // renewal is first recorded by the two deliveries below and not by the gateway's own.
    const real = await shopGatewayOf(suite, shop.shop.merchant.id);
    useMerchantGatewayForTests((merchantAccountId) =>
      merchantAccountId === shop.shop.merchant.id
        ? {
            ...real,
            findSubscription: async (id) => {
              const found = await real.findSubscription(id);
              return { ...found, transactions: found.transactions.slice(-1) };
            },
          }
        : ownGatewayOf(merchantAccountId),
    );
    const renewal = await advanceGatewayClock(suite.runtime, 31);
    const charged = renewal.deliveries.find(
      (delivery) => delivery.subscriptionId === subscriptionId && delivery.kind === 'subscription_charged_successfully',
    );
    const beforeWebhook = await discountsGiven(shop.shop);
    useMerchantGatewayForTests(undefined);
    // The gateway's own delivery was taken (and is remembered as seen): this is a later notice of
    // the same charge, which the shop's route has not seen.
    const notification = await signedNotification(
      await shopKeysOf(suite, shop.shop.merchant.id),
      'subscription_charged_successfully',
      subscriptionId,
      new Date(Date.parse(charged?.at ?? new Date().toISOString()) + 60_000).toISOString(),
    );

    // Act: the same delivery twice at once, as a gateway retrying it would.
    const answers = await Promise.all([
      postWebhook(shop.shop.merchant.id, notification),
      postWebhook(shop.shop.merchant.id, notification),
    ]);
    const dashboard = await suite.api.call(routes.showMerchantDashboard, { as: shop.shop.owner });
    const afterWebhook = await discountsGiven(shop.shop);

    // Assess
    expect(atCheckout).toBe(100);
    expect(charged?.delivered).toBe(true);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    // The renewal's $1.00 once (the dashboard's 30 days may or may not still hold the first charge's).
    expect(afterWebhook - beforeWebhook).toBe(100);
    expect(
      (
        await getDb()
          .entities.storeFigure.get({
            merchantAccountId: shop.shop.merchant.id,
            scope: shopScope,
            period: figureDayOf(charged?.at ?? ''),
          })
          .go({ consistent: true })
      ).data,
    ).toMatchObject({ revenueMinor: 800, discountsMinor: 100 });
    expectOk(dashboard);
    expect(dashboard.body.recentSales.map((sale) => [sale.kind, sale.amount.amountMinor])).toEqual([
      ['renewal', 800],
      ['order', 800],
    ]);
  });
});
