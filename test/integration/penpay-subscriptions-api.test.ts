import { beforeAll, describe, expect, it, vi } from 'vitest';
import { signedNotification } from '../../infra/local/payment-gateway/webhooks';
import { getDb } from '../../functions/lib/db/service';
import type { PaymentGateway } from '../../functions/lib/payments/gateway';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { LOCAL_GATEWAY_KEYS, type LocalGatewayKeys } from '../../shared/payments/local-gateway';
import { routes } from '../../shared/routes';
import * as merchantRoutes from '../../shared/routes/merchant';
import * as storeRoutes from '../../shared/routes/store';
import type { GradeView } from '../../shared/schemas/merchant';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsArriving, mailsTo } from '../support/mail';
import { advanceGatewayClock, paymentsOf, whileGatewayWebhooksHeld } from '../support/payments';
import { openShop, type Shop as OpenedShop, shopKeysOf } from '../support/penpay';

const suite = apiSuite();

interface Shop extends OpenedShop {
  /** The shop's own account at the local gateway, as its merchant (or Braintree's control panel) reaches it. */
  keys: LocalGatewayKeys;
  gateway: PaymentGateway;
}

/** A shop opened and connected, with its own account at the local gateway. */
async function openShopWithGateway(label: string): Promise<Shop> {
  const shop = await openShop(suite, label);
  const keys = await shopKeysOf(suite, shop.merchant.id);
  return { ...shop, keys, gateway: createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint, keys) };
}

/** A product of its own with one monthly grade offering extra seats (up to 2) and priority support (1). */
async function subscriptionGrade(shop: Shop, title: string, amountMinor = 1_200): Promise<GradeView> {
  const product = await suite.api.call(merchantRoutes.createProductStock, {
    body: { title, visibility: 'public' },
    as: shop.owner,
  });
  expectOk(product);
  const grade = await suite.api.call(merchantRoutes.createGrade, {
    params: { productStockId: product.body.id },
    body: {
      name: 'Monthly',
      amountMinor,
      subscription: {
        braintreePlanId: 'monthly',
        addOns: [{ addOnId: 'extra-seat', maxQuantity: 2 }, { addOnId: 'priority-support' }],
      },
    },
    as: shop.owner,
  });
  expectOk(grade);
  return grade.body;
}

/**
 * A customer's subscription to a grade, bought through the storefront's checkout: the grade in
 * the cart, the cart's invoice, paid with a test nonce at the shop's own gateway.
 */
async function subscribe(customer: SignedInUser, shop: Shop, grade: GradeView, nonce = 'fake-valid-visa-nonce'): Promise<string> {
  const added = await suite.api.call(storeRoutes.replaceCartWithItem, { body: { productStockGradeId: grade.id }, as: customer });
  expectOk(added);
  const cart = await suite.api.call(storeRoutes.getCartInvoice, {
    query: { merchantAccountId: shop.merchant.id },
    as: customer,
  });
  expectOk(cart);
  const invoiceId = cart.body.invoice?.id ?? '';
  const paid = await suite.api.call(storeRoutes.fulfillStoreInvoice, {
    params: { invoiceId },
    body: { paymentMethodNonce: nonce },
    as: customer,
  });
  expectOk(paid);
  const { data } = await getDb().entities.subscription.query.byCustomer({ customerId: customer.userId }).go({ pages: 'all' });
  const subscription = data.find((item) => item.priceId === grade.id && item.invoiceId === invoiceId);
  if (!subscription) throw new Error(`The checkout of invoice ${invoiceId} stored no subscription`);
  return subscription.subscriptionId;
}

const stored = async (subscriptionId: string) =>
  (await getDb().entities.subscription.get({ subscriptionId }).go({ consistent: true })).data;

async function mySubscriptions(user: SignedInUser) {
  const answer = await suite.api.call(storeRoutes.listMySubscriptions, { as: user });
  expectOk(answer);
  return answer.body.items;
}

/** The grade's dashboard, as its merchant sees it: subscriptions now, and its latest sales. */
async function gradeDashboard(shop: Shop, grade: GradeView) {
  const answer = await suite.api.call(merchantRoutes.showGradeDashboard, {
    params: { productStockId: grade.productStockId, productStockGradeId: grade.id },
    as: shop.owner,
  });
  expectOk(answer);
  return answer.body;
}

const countsOf = async (shop: Shop, grade: GradeView) => {
  const { figures } = await gradeDashboard(shop, grade);
  return { active: figures.activeSubscriptions, pastDue: figures.pastDueSubscriptions };
};

const postWebhook = (merchantAccountId: string, form: { bt_signature: string; bt_payload: string }) =>
  fetch(`${suite.runtime.url}${storeRoutes.receiveMerchantWebhook.path.replace('{merchantAccountId}', merchantAccountId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

async function declineCard(token: string, declining: boolean): Promise<void> {
  const answer = await fetch(`${suite.runtime.paymentGatewayEndpoint}/__control/payment-methods/${token}/decline`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ declining }),
  });
  expect(answer.status).toBe(200);
}

const addAddOn = (user: SignedInUser, subscriptionProductId: string, addOnId: string, quantity = 1) =>
  suite.api.call(storeRoutes.addStoreSubscriptionAddOn, {
    params: { subscriptionProductId },
    body: { addOnId, quantity },
    as: user,
  });

let shop: Shop;
let otherShop: Shop;

beforeAll(async () => {
  [shop, otherShop] = await Promise.all([openShopWithGateway('beans'), openShopWithGateway('tea')]);
});

describe("the customer's subscriptions", () => {
  it('lists them across shops, newest first, named, with their add-ons and what may still be added, to their customer alone', async () => {
    // Prepare
    const [customer, stranger] = await Promise.all([suite.api.signIn('lister'), suite.api.signIn('lister-stranger')]);
    const [beans, tea] = await Promise.all([
      subscriptionGrade(shop, 'Coffee beans'),
      subscriptionGrade(otherShop, 'Green tea', 900),
    ]);
    const older = await subscribe(customer, shop, beans);
    const newer = await subscribe(customer, otherShop, tea);
    const pro = await suite.api.call(routes.getCheckoutInvoice, { query: { priceId: 'pro-monthly' }, as: customer });
    expectOk(pro);
    const paidPro = await suite.api.call(routes.fulfillSubscriptionInvoice, {
      params: { invoiceId: pro.body.invoice.id },
      body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
      as: customer,
    });
    expectOk(paidPro);
    expectOk(await addAddOn(customer, older, 'priority-support'));

    // Act
    const listed = await mySubscriptions(customer);
    const strangers = await mySubscriptions(stranger);

    // Assess: the Pro plan is the platform's, not a shop's, and is not listed.
    expect(listed.map((item) => item.id)).toEqual([newer, older]);
    expect(listed[0]).toMatchObject({
      shop: { id: otherShop.merchant.id, handle: otherShop.merchant.handle, shopName: 'tea shop' },
      productTitle: 'Green tea',
      gradeName: 'Monthly',
      status: 'Active',
      price: { amountMinor: 900, currency: 'USD' },
      billingFrequencyMonths: 1,
      paymentMethod: { cardType: 'Visa', last4: '1881' },
      addOns: [],
    });
    expect(listed[0]?.availableAddOns.map((addOn) => [addOn.addOnId, addOn.name, addOn.maxQuantity])).toEqual([
      ['extra-seat', 'Extra seat', 2],
      ['priority-support', 'Priority support', 1],
    ]);
    expect(listed[1]).toMatchObject({ shop: { shopName: 'beans shop' }, productTitle: 'Coffee beans' });
    expect(listed[1]?.addOns).toEqual([
      { addOnId: 'priority-support', name: 'Priority support', quantity: 1, price: { amountMinor: 500, currency: 'USD' } },
    ]);
    // Priority support is at its most (1): only extra seats can still be added.
    expect(listed[1]?.availableAddOns.map((addOn) => addOn.addOnId)).toEqual(['extra-seat']);
    expect(strangers).toEqual([]);
  });

  it("answers 404 to another customer on every route for someone's subscription, exactly as for a made-up id", async () => {
    // Prepare
    const [customer, stranger] = await Promise.all([suite.api.signIn('owner'), suite.api.signIn('intruder')]);
    const grade = await subscriptionGrade(shop, 'Espresso');
    const subscriptionId = await subscribe(customer, shop, grade);
    expectOk(await addAddOn(customer, subscriptionId, 'extra-seat'));
    const before = await stored(subscriptionId);
    const params = { subscriptionProductId: subscriptionId };

    // Act
    const answers = [
      await suite.api.call(storeRoutes.updateStoreSubscriptionPaymentMethod, {
        params,
        body: { paymentMethodNonce: 'fake-valid-mastercard-nonce' },
        as: stranger,
      }),
      await addAddOn(stranger, subscriptionId, 'extra-seat', 2),
      await suite.api.call(storeRoutes.removeStoreSubscriptionAddOn, {
        params: { ...params, addOnId: 'extra-seat' },
        as: stranger,
      }),
      await suite.api.call(storeRoutes.cancelStoreSubscription, { params, as: stranger }),
    ];
    const madeUp = await suite.api.call(storeRoutes.cancelStoreSubscription, {
      params: { subscriptionProductId: 's_doesnotexist0000' },
      as: customer,
    });
    const signedOut = await suite.api.call(storeRoutes.cancelStoreSubscription, { params });

    // Assess
    expectError(madeUp, 404);
    for (const answer of answers) {
      expectError(answer, 404);
      expect(answer.body).toEqual(madeUp.body);
    }
    expectError(signedOut, 401);
    expect(await stored(subscriptionId)).toEqual(before);
    expect((await shop.gateway.findSubscription(subscriptionId)).status).toBe('Active');
    expect(await mySubscriptions(stranger)).toEqual([]);
  });
});

describe('add-ons', () => {
  let customer: SignedInUser;
  let grade: GradeView;
  let subscriptionId: string;

  beforeAll(async () => {
    customer = await suite.api.signIn('add-ons');
    grade = await subscriptionGrade(shop, 'Roaster club');
    subscriptionId = await subscribe(customer, shop, grade);
  });

  it('charges the rest of the cycle at once, prorated, records it once for the customer and the shop, and sends a receipt', async () => {
    // Act
    const added = await addAddOn(customer, subscriptionId, 'extra-seat');
    const again = await addAddOn(customer, subscriptionId, 'extra-seat');

    // Assess
    expectOk(added);
    expect(added.body).toBe(true);
    expectOk(again);
    const atGateway = await shop.gateway.findSubscription(subscriptionId);
    expect(atGateway.addOns).toEqual([{ id: 'extra-seat', amount: '2.00', quantity: 1 }]);
    // The subscription's first charge, then the prorated one; setting the same quantity again charged nothing.
    expect(atGateway.transactions).toHaveLength(2);
    const prorated = atGateway.transactions[0];
    const proratedMinor = Math.round(Number(prorated?.amount) * 100);
    expect(proratedMinor).toBeGreaterThan(0);
    expect(proratedMinor).toBeLessThanOrEqual(200);
    const payments = await paymentsOf(customer.userId);
    expect(payments.map((payment) => [payment.transactionId, payment.description, payment.amountMinor])).toContainEqual([
      prorated?.id,
      'beans shop: Monthly — Extra seat (prorated)',
      proratedMinor,
    ]);
    expect(payments).toHaveLength(2);
    const { recentSales } = await gradeDashboard(shop, grade);
    expect(recentSales.map((sale) => [sale.kind, sale.description, sale.amount.amountMinor])).toEqual([
      ['add-on', 'Monthly — Extra seat (prorated)', proratedMinor],
      ['order', 'Roaster club — Monthly', 1_200],
    ]);
    const [listed] = (await mySubscriptions(customer)).filter((item) => item.id === subscriptionId);
    expect(listed?.addOns).toEqual([
      { addOnId: 'extra-seat', name: 'Extra seat', quantity: 1, price: { amountMinor: 200, currency: 'USD' } },
    ]);
    expect(listed?.availableAddOns.map((addOn) => addOn.addOnId)).toEqual(['extra-seat', 'priority-support']);
    const receipts = await mailsArriving(suite.runtime.mailDir, customer.email, {
      match: (mail) =>
        (mail.headers.subject ?? '').startsWith('Your receipt from beans shop') && mail.text?.includes('(prorated)') === true,
    });
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain(`Monthly — Extra seat (prorated): $${(proratedMinor / 100).toFixed(2)}`);
  });

  it('charges a prorated add-on once when it is added in two tabs at the same time, and answers both', async () => {
    // Prepare
    const owner = await suite.api.signIn('add-on-two-tabs');
    const racing = await subscribe(owner, shop, grade);

    // Act
    const answers = await Promise.all([addAddOn(owner, racing, 'extra-seat', 2), addAddOn(owner, racing, 'extra-seat', 2)]);

    // Assess
    for (const answer of answers) expectOk(answer);
    const atGateway = await shop.gateway.findSubscription(racing);
    expect(atGateway.addOns).toEqual([{ id: 'extra-seat', amount: '2.00', quantity: 2 }]);
    expect(atGateway.transactions).toHaveLength(2);
    expect(await paymentsOf(owner.userId)).toHaveLength(2);
  });

  it('refuses an add-on the grade does not offer, or more than its most, with 400 and nothing changed', async () => {
    // Prepare
    const before = await stored(subscriptionId);

    // Act
    const unknown = await addAddOn(customer, subscriptionId, 'free-lunch');
    const tooMany = await addAddOn(customer, subscriptionId, 'priority-support', 2);

    // Assess
    expectError(unknown, 400);
    expect(unknown.body.message).toMatch(/offers no add-on 'free-lunch'/);
    expectError(tooMany, 400);
    expect(tooMany.body.message).toMatch(/at most 1 of Priority support/);
    expect(await stored(subscriptionId)).toEqual(before);
    expect((await shop.gateway.findSubscription(subscriptionId)).addOns.map((addOn) => addOn.id)).toEqual(['extra-seat']);
  });

  it('answers 402 when the prorated charge is declined, and nothing changes', async () => {
    // Prepare
    const owner = await suite.api.signIn('declined-add-on');
    const declining = await subscribe(owner, shop, grade);
    const before = await stored(declining);
    await declineCard(before?.paymentMethod.token ?? '', true);

    // Act
    const declined = await addAddOn(owner, declining, 'priority-support');

    // Assess
    expectError(declined, 402);
    expect(declined.body).toMatchObject({ code: 'PAYMENT_DECLINED', reason: 'processor_declined' });
    expect(declined.body.message).toMatch(/^Nothing was added: .*declined/);
    const atGateway = await shop.gateway.findSubscription(declining);
    expect(atGateway.addOns).toEqual([]);
    expect(atGateway.status).toBe('Active');
    expect(await stored(declining)).toEqual(before);
    expect(await paymentsOf(owner.userId)).toHaveLength(1);
  });

  it('takes one off from the next cycle with no refund, and answers 404 for one that is not on it', async () => {
    // Prepare
    const paymentsBefore = await paymentsOf(customer.userId);
    const removeAddOn = (addOnId: string) =>
      suite.api.call(storeRoutes.removeStoreSubscriptionAddOn, {
        params: { subscriptionProductId: subscriptionId, addOnId },
        as: customer,
      });

    // Act
    const notOnIt = await removeAddOn('priority-support');
    const removed = await removeAddOn('extra-seat');
    const again = await removeAddOn('extra-seat');

    // Assess
    expectError(notOnIt, 404);
    expectOk(removed);
    expect(removed.body).toBe(true);
    expectError(again, 404);
    const atGateway = await shop.gateway.findSubscription(subscriptionId);
    expect(atGateway.addOns).toEqual([]);
    expect(atGateway.balance).toBe('0.00');
    expect(atGateway.transactions).toHaveLength(2);
    expect((await stored(subscriptionId))?.addOns).toEqual([]);
    expect(await paymentsOf(customer.userId)).toHaveLength(paymentsBefore.length);
  });
});

describe('canceling', () => {
  it('stops the charges at the shop, counts it once, confirms it by email once, and again changes nothing', async () => {
    // Prepare
    const customer = await suite.api.signIn('canceler');
    const grade = await subscriptionGrade(shop, 'Decaf');
    const subscriptionId = await subscribe(customer, shop, grade);
    const countsBefore = await countsOf(shop, grade);
    expectOk(await addAddOn(customer, subscriptionId, 'extra-seat'));
    const params = { subscriptionProductId: subscriptionId };

    // Act
    const canceled = await suite.api.call(storeRoutes.cancelStoreSubscription, { params, as: customer });
    const again = await suite.api.call(storeRoutes.cancelStoreSubscription, { params, as: customer });
    const addOnAfter = await addAddOn(customer, subscriptionId, 'priority-support');

    // Assess
    expectOk(canceled);
    expect(canceled.body).toBe(true);
    expectOk(again);
    expect(again.body).toBe(true);
    expectError(addOnAfter, 409);
    expect((await shop.gateway.findSubscription(subscriptionId)).status).toBe('Canceled');
    // The gateway's own webhook about the cancellation races the route: whichever applies it counts it, once.
    await vi.waitFor(async () => expect((await stored(subscriptionId))?.status).toBe('Canceled'));
    const [listed] = (await mySubscriptions(customer)).filter((item) => item.id === subscriptionId);
    expect(listed).toMatchObject({ status: 'Canceled', nextBillingDate: null, availableAddOns: [] });
    expect(listed?.canceledAt).not.toBeNull();
    expect(countsBefore).toEqual({ active: 1, pastDue: 0 });
    await vi.waitFor(async () => expect(await countsOf(shop, grade)).toEqual({ active: 0, pastDue: 0 }));
    const confirmations = (await mailsTo(suite.runtime.mailDir, customer.email)).filter((mail) =>
      /canceled/i.test(mail.headers.subject ?? ''),
    );
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.headers.subject).toBe('Your subscription at beans shop is canceled');
    expect(confirmations[0]?.text).toContain('Decaf — Monthly at beans shop is canceled');
  });
});

describe("a shop's webhook", () => {
  let customer: SignedInUser;
  let grade: GradeView;
  let subscriptionId: string;

  beforeAll(async () => {
    customer = await suite.api.signIn('webhook-customer');
    grade = await subscriptionGrade(shop, 'Cold brew');
    subscriptionId = await subscribe(customer, shop, grade);
  });

  it('refuses a notification not signed with the shop’s own keys with 401, and an unknown shop with 404', async () => {
    // Prepare
    const now = new Date().toISOString();
    const [own, byAnotherMerchant, byThePlatform] = await Promise.all([
      signedNotification(shop.keys, 'subscription_canceled', subscriptionId, now),
      signedNotification(otherShop.keys, 'subscription_canceled', subscriptionId, now),
      signedNotification(LOCAL_GATEWAY_KEYS, 'subscription_canceled', subscriptionId, now),
    ]);
    const unconnected = await openShop(suite, 'no-gateway', { connect: false });

    // Act
    const tampered = await postWebhook(shop.merchant.id, { ...own, bt_signature: `${own.bt_signature}0` });
    const anotherMerchant = await postWebhook(shop.merchant.id, byAnotherMerchant);
    const platform = await postWebhook(shop.merchant.id, byThePlatform);
    const unknownShop = await postWebhook(`mer_${'0'.repeat(20)}`, own);
    const noGateway = await postWebhook(unconnected.merchant.id, own);

    // Assess
    expect([tampered.status, anotherMerchant.status, platform.status]).toEqual([401, 401, 401]);
    expect([unknownShop.status, noGateway.status]).toEqual([404, 404]);
    expect(await noGateway.json()).toEqual(await unknownShop.json());
    expect((await stored(subscriptionId))?.status).toBe('Active');
  });

  it('leaves alone a subscription of another shop, even when that shop’s gateway signs for its id', async () => {
    // Prepare: the other merchant controls their own gateway, and names this shop's subscription.
    const forged = await signedNotification(otherShop.keys, 'subscription_canceled', subscriptionId, new Date().toISOString());

    // Act
    const answer = await postWebhook(otherShop.merchant.id, forged);

    // Assess
    expect(answer.status).toBe(200);
    expect((await stored(subscriptionId))?.status).toBe('Active');
    expect(await countsOf(shop, grade)).toEqual({ active: 1, pastDue: 0 });
  });

  it('acknowledges a repeated delivery once and ignores it, and applies what the gateway says now', async () => {
    // Prepare: a validly signed "canceled" for a subscription that is active at the gateway.
    const sample = await signedNotification(shop.keys, 'subscription_canceled', subscriptionId, new Date().toISOString());

    // Act
    const first = await postWebhook(shop.merchant.id, sample);
    const repeat = await postWebhook(shop.merchant.id, sample);

    // Assess
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ received: true, duplicate: true });
    expect((await stored(subscriptionId))?.status).toBe('Active');
    expect(await countsOf(shop, grade)).toEqual({ active: 1, pastDue: 0 });
  });
});

describe('a subscription over time, through the shop’s webhooks', () => {
  it('renews, goes past due on a declined renewal with the counts moving, and is active again with a new card', async () => {
    // Prepare
    const customer = await suite.api.signIn('renewer');
    const grade = await subscriptionGrade(otherShop, 'Tea of the month', 1_500);
    const subscriptionId = await subscribe(customer, otherShop, grade);
    const token = (await stored(subscriptionId))?.paymentMethod.token ?? '';

    // Act 1: a month on, the renewal is charged and the gateway's webhooks come to the shop's route.
    const renewal = await advanceGatewayClock(suite.runtime, 31);
    const renewalDeliveries = renewal.deliveries.filter((delivery) => delivery.subscriptionId === subscriptionId);
    const renewed = await gradeDashboard(otherShop, grade);
    const charged = renewalDeliveries.find((delivery) => delivery.kind === 'subscription_charged_successfully');
    const redelivered = charged
      ? await postWebhook(
          otherShop.merchant.id,
          await signedNotification(otherShop.keys, 'subscription_charged_successfully', subscriptionId, charged.at),
        )
      : undefined;

    // Assess 1: recorded once, however many times it is told.
    expect(renewalDeliveries.length).toBeGreaterThan(0);
    expect(renewalDeliveries.every((delivery) => delivery.delivered)).toBe(true);
    expect(redelivered?.status).toBe(200);
    expect(await redelivered?.json()).toEqual({ received: true, duplicate: true });
    expect(renewed.recentSales.map((sale) => [sale.kind, sale.amount.amountMinor])).toEqual([
      ['renewal', 1_500],
      ['order', 1_500],
    ]);
    expect(await paymentsOf(customer.userId)).toHaveLength(2);
    expect(renewed.figures).toMatchObject({ activeSubscriptions: 1, pastDueSubscriptions: 0 });
    // The order's receipt, and the renewal's.
    const receipts = await mailsArriving(suite.runtime.mailDir, customer.email, {
      match: (mail) => (mail.headers.subject ?? '').startsWith('Your receipt from tea shop: $15.00'),
      count: 2,
    });
    expect(receipts).toHaveLength(2);

    // Act 2: the card starts declining, and the next renewal fails.
    await declineCard(token, true);
    await advanceGatewayClock(suite.runtime, 31);
    const pastDue = await stored(subscriptionId);
    const countsPastDue = await countsOf(otherShop, grade);
    const notifications = await suite.api.call(routes.listUnseenNotifications, { as: customer });

    // Assess 2
    expect(pastDue?.status).toBe('Past Due');
    expect(countsPastDue).toEqual({ active: 0, pastDue: 1 });
    expectOk(notifications);
    expect(notifications.body.items.map((item) => item.kind)).toContain('subscription-payment-failed');
    const failedMail = (await mailsTo(suite.runtime.mailDir, customer.email)).find((mail) =>
      /failed/i.test(mail.headers.subject ?? ''),
    );
    expect(failedMail?.text).toContain('Tea of the month — Monthly at tea shop');
    expect(failedMail?.text).toContain('/store/orders');

    // Act 3: a card that declines too, then one that pays.
    const stillDeclined = await suite.api.call(storeRoutes.updateStoreSubscriptionPaymentMethod, {
      params: { subscriptionProductId: subscriptionId },
      body: { paymentMethodNonce: 'fake-processor-declined-visa-nonce' },
      as: customer,
    });
    const updated = await suite.api.call(storeRoutes.updateStoreSubscriptionPaymentMethod, {
      params: { subscriptionProductId: subscriptionId },
      body: { paymentMethodNonce: 'fake-valid-mastercard-nonce' },
      as: customer,
    });

    // Assess 3
    expectError(stillDeclined, 402);
    expectOk(updated);
    expect(updated.body).toBe(true);
    const [listed] = (await mySubscriptions(customer)).filter((item) => item.id === subscriptionId);
    expect(listed).toMatchObject({ status: 'Active', paymentMethod: { cardType: 'MasterCard', last4: '4444' } });
    expect(listed?.balance.amountMinor).toBe(0);
    // Whichever applies the recovery first (this route, or the gateway's webhook racing it) counts it, once.
    await vi.waitFor(async () => expect(await countsOf(otherShop, grade)).toEqual({ active: 1, pastDue: 0 }));
    // The first charge, the renewal and the retry.
    expect(await paymentsOf(customer.userId)).toHaveLength(3);
    const { recentSales } = await gradeDashboard(otherShop, grade);
    expect(recentSales.map((sale) => sale.kind)).toEqual(['renewal', 'renewal', 'order']);
  });
});

describe('a late webhook from the shop’s gateway', () => {
  it('leaves the route to recover a past-due subscription at once, and counts nothing twice when it comes', async () => {
    // Prepare: past due on a declined renewal
    const customer = await suite.api.signIn('late-webhook-renewer');
    const grade = await subscriptionGrade(otherShop, 'Coffee of the month', 1_500);
    const subscriptionId = await subscribe(customer, otherShop, grade);
    await declineCard((await stored(subscriptionId))?.paymentMethod.token ?? '', true);
    await advanceGatewayClock(suite.runtime, 31);
    const countsPastDue = await countsOf(otherShop, grade);

    // Act: the gateway's webhooks held, as Braintree sends them when it gets to them, until the route has answered
    const [updated, countsAtOnce] = await whileGatewayWebhooksHeld(suite.runtime, async () => {
      const answer = await suite.api.call(storeRoutes.updateStoreSubscriptionPaymentMethod, {
        params: { subscriptionProductId: subscriptionId },
        body: { paymentMethodNonce: 'fake-valid-mastercard-nonce' },
        as: customer,
      });
      return [answer, await countsOf(otherShop, grade)] as const;
    });

    // Assess
    expect(countsPastDue).toEqual({ active: 0, pastDue: 1 });
    expectOk(updated);
    expect(countsAtOnce).toEqual({ active: 1, pastDue: 0 });
    expect(await countsOf(otherShop, grade)).toEqual({ active: 1, pastDue: 0 });
    const [listed] = (await mySubscriptions(customer)).filter((item) => item.id === subscriptionId);
    expect(listed).toMatchObject({ status: 'Active', paymentMethod: { cardType: 'MasterCard', last4: '4444' } });
    // The first charge and the retry, each once.
    expect(await paymentsOf(customer.userId)).toHaveLength(2);
  });
});

describe('a customer who deletes their account', () => {
  it('has their shop subscription canceled at the shop’s own gateway first, and the shop counts it', async () => {
    // Prepare
    const shop = await openShopWithGateway('leaving-shop');
    const grade = await subscriptionGrade(shop, 'Leaving club');
    const leaver = await suite.api.signIn('leaving-customer');
    const subscriptionId = await subscribe(leaver, shop, grade);
    expect(await countsOf(shop, grade)).toEqual({ active: 1, pastDue: 0 });

    // Act
    const deleted = await suite.api.call(routes.deleteAccount, { as: leaver });

    // Assess: nothing bills at the shop's gateway any more, our copy says so, and the dashboard moved once
    expectOk(deleted);
    expect((await shop.gateway.findSubscription(subscriptionId)).status).toBe('Canceled');
    expect((await stored(subscriptionId))?.status).toBe('Canceled');
    expect(await countsOf(shop, grade)).toEqual({ active: 0, pastDue: 0 });
  });
});
