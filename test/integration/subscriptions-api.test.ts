import braintree from 'braintree';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { PaymentGatewayUnavailable, type PaymentGateway } from '../../functions/lib/payments/gateway';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { usePaymentGatewayForTests } from '../../functions/lib/payments/payment-gateway';
import { LOCAL_GATEWAY_KEYS } from '../../shared/payments/local-gateway';
import { routes } from '../../shared/routes';
import { PRO_PRICES } from '../../shared/transfers/pro-plan';
import { PLAN_LIMITS } from '../../shared/transfers/plans';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { advanceGatewayClock, paymentsOf, whileGatewayWebhooksHeld } from '../support/payments';

const suite = apiSuite();

/** The local gateway's keys sign webhooks exactly as Braintree's SDK signs its samples. */
const signer = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, ...LOCAL_GATEWAY_KEYS });

async function checkoutInvoice(user: SignedInUser, priceId: 'pro-monthly' | 'pro-yearly' = 'pro-monthly') {
  const answer = await suite.api.call(routes.getCheckoutInvoice, { query: { priceId }, as: user });
  expectOk(answer);
  return answer.body.invoice;
}

async function fulfil(user: SignedInUser, invoiceId: string, nonce: string) {
  return suite.api.call(routes.fulfillSubscriptionInvoice, {
    params: { invoiceId },
    body: { paymentMethodNonce: nonce },
    as: user,
  });
}

async function subscribe(user: SignedInUser, nonce = 'fake-valid-visa-nonce') {
  const invoice = await checkoutInvoice(user);
  const paid = await fulfil(user, invoice.id, nonce);
  expectOk(paid);
  return paid.body.subscription;
}

afterEach(() => usePaymentGatewayForTests(undefined));

describe('the Pro plan as it is sold', () => {
  it('lists its monthly and yearly prices from the server, with what each plan allows, to anyone', async () => {
    // Act
    const stock = await suite.api.call(routes.getProProductStock);

    // Assess
    expectOk(stock);
    expect(stock.body.prices.map((price) => [price.priceId, price.price.amountMinor, price.price.currency])).toEqual([
      ['pro-monthly', PRO_PRICES['pro-monthly'].amountMinor, 'USD'],
      ['pro-yearly', PRO_PRICES['pro-yearly'].amountMinor, 'USD'],
    ]);
    expect(stock.body.limits).toEqual({ free: PLAN_LIMITS.free, pro: PLAN_LIMITS.pro });
  });

  it('answers the same open invoice for a price until it is paid, priced by the server', async () => {
    // Prepare
    const buyer = await suite.api.signIn('invoice-buyer');

    // Act
    const first = await checkoutInvoice(buyer, 'pro-yearly');
    const again = await checkoutInvoice(buyer, 'pro-yearly');
    const monthly = await checkoutInvoice(buyer, 'pro-monthly');
    const unknownPrice = await suite.api.call(routes.getCheckoutInvoice, {
      query: { priceId: 'pro-forever' as 'pro-yearly' },
      as: buyer,
    });

    // Assess
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ status: 'open', total: { amountMinor: 12_000, currency: 'USD' } });
    expect(monthly.id).not.toBe(first.id);
    expect(monthly.total.amountMinor).toBe(1_200);
    expectError(unknownPrice, 400);
  });
});

describe('paying an invoice into a subscription', () => {
  it('says why a card was declined, keeps the invoice payable, and then takes another card', async () => {
    // Prepare
    const buyer = await suite.api.signIn('declined-buyer');
    const invoice = await checkoutInvoice(buyer);

    // Act
    const declined = await fulfil(buyer, invoice.id, 'fake-processor-declined-visa-nonce');
    const spent = await fulfil(buyer, invoice.id, 'fake-consumed-nonce');
    const afterDeclines = await suite.api.call(routes.getCheckoutInvoice, { query: { priceId: 'pro-monthly' }, as: buyer });
    const paid = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');

    // Assess
    expectError(declined, 402);
    expect(declined.body).toMatchObject({ code: 'PAYMENT_DECLINED', reason: 'processor_declined' });
    expect(declined.body.message).toMatch(/declined/i);
    expectError(spent, 402);
    expect(spent.body).toMatchObject({ reason: 'consumed_nonce' });
    expectOk(afterDeclines);
    expect(afterDeclines.body.invoice).toMatchObject({ id: invoice.id, status: 'open' });
    expect(afterDeclines.body.invoice.lastDecline?.reason).toBe('consumed_nonce');
    expectOk(paid);
    expect(paid.body.invoice).toMatchObject({ id: invoice.id, status: 'paid' });
    expect(paid.body.subscription).toMatchObject({ status: 'Active', givesPro: true, priceId: 'pro-monthly' });
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
  });

  it('gives Pro at once: new transfers and drafts made on Free take its limits, and a receipt is emailed', async () => {
    // Prepare
    const buyer = await suite.api.signIn('pro-limits');
    const draft = await suite.api.call(routes.createTransfer, { body: { title: 'Made on Free' }, as: buyer });
    expectOk(draft, 201);
    const tooBigForFree = { transferId: draft.body.id, name: 'film.mov', size: 3_000_000_000, type: 'video/quicktime' };
    const refusedOnFree = await suite.api.call(routes.createBRecord, { body: tooBigForFree, as: buyer });

    // Act
    const subscription = await subscribe(buyer);
    const home = await suite.api.call(routes.showTransferHome, { as: buyer });
    const acceptedOnPro = await suite.api.call(routes.createBRecord, { body: tooBigForFree, as: buyer });
    const active = await suite.api.call(routes.getActiveSubscription, { as: buyer });

    // Assess
    expectError(refusedOnFree, 400);
    expectOk(home);
    expect(home.body.limits).toEqual(PLAN_LIMITS.pro);
    expectOk(acceptedOnPro, 201);
    expectOk(active);
    expect(active.body.subscription?.id).toBe(subscription.id);
    const receipts = (await mailsTo(suite.runtime.mailDir, buyer.email)).filter((mail) =>
      /receipt/i.test(mail.headers.subject ?? ''),
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('$12.00');
  });

  it('charges once for a double click, a retry and a second tab, and answers each the same', async () => {
    // Prepare
    const buyer = await suite.api.signIn('many-clicks');
    const invoice = await checkoutInvoice(buyer);

    // Act
    const answers = await Promise.all(Array.from({ length: 20 }, () => fulfil(buyer, invoice.id, 'fake-valid-visa-nonce')));
    const later = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');

    // Assess
    const ids = new Set<string>();
    for (const answer of [...answers, later]) {
      expectOk(answer);
      ids.add(answer.body.subscription.id);
    }
    expect(ids.size).toBe(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
    const gateway = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    expect((await gateway.findSubscription([...ids][0] as string)).transactions).toHaveLength(1);
  });

  it('answers a payment that started before the subscription existed with that subscription, not "already on Pro"', async () => {
    // Prepare: the invoice is paid, and is seen mid-payment by a second tab that read it a moment earlier.
    const buyer = await suite.api.signIn('second-tab');
    const invoice = await checkoutInvoice(buyer);
    const first = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');
    expectOk(first);
    const invoices = getDb().entities.invoice;
    await invoices
      .patch({ invoiceId: invoice.id })
      .set({ status: 'paying', payingUntil: new Date(Date.now() + 30_000).toISOString() })
      .go();
    const finishing = new Promise((resolve) => setTimeout(resolve, 400)).then(() =>
      invoices.patch({ invoiceId: invoice.id }).set({ status: 'paid' }).remove(['payingUntil']).go(),
    );

    // Act
    const second = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');
    await finishing;

    // Assess
    expectOk(second);
    expect(second.body.subscription.id).toBe(first.body.subscription.id);
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
  });

  it('lets nobody but the invoice’s customer see or pay it', async () => {
    // Prepare
    const [buyer, stranger] = await Promise.all([suite.api.signIn('owner'), suite.api.signIn('stranger')]);
    const invoice = await checkoutInvoice(buyer);

    // Act
    const paidByStranger = await fulfil(stranger, invoice.id, 'fake-valid-visa-nonce');
    const signedOut = await suite.api.call(routes.fulfillSubscriptionInvoice, {
      params: { invoiceId: invoice.id },
      body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
    });

    // Assess
    expectError(paidByStranger, 404);
    expectError(signedOut, 401);
    expect(await paymentsOf(stranger.userId)).toHaveLength(0);
    const still = await checkoutInvoice(buyer);
    expect(still).toMatchObject({ id: invoice.id, status: 'open' });
  });

  it('answers 503 with Retry-After when the gateway is out of reach, and the invoice stays payable', async () => {
    // Prepare
    const buyer = await suite.api.signIn('gateway-down');
    const invoice = await checkoutInvoice(buyer);
    usePaymentGatewayForTests(createLocalPaymentGateway('http://127.0.0.1:9'));

    // Act
    const down = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');
    usePaymentGatewayForTests(undefined);
    const back = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');

    // Assess
    expectError(down, 503);
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    expectOk(back);
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
  });

  it('never bills twice when the answer to the charge was lost: the retry finds the subscription the charge made', async () => {
    // Prepare: the gateway makes the subscription, but its answer never arrives.
    const buyer = await suite.api.signIn('lost-answer');
    const invoice = await checkoutInvoice(buyer);
    const real = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    const losesAnswers: PaymentGateway = {
      ...real,
      environment: real.environment,
      createSubscription: async (request) => {
        await real.createSubscription(request);
        throw new PaymentGatewayUnavailable(new Error('socket hang up'));
      },
    };
    usePaymentGatewayForTests(losesAnswers);

    // Act
    const lost = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');
    usePaymentGatewayForTests(undefined);
    const retried = await fulfil(buyer, invoice.id, 'fake-valid-visa-nonce');

    // Assess
    expectError(lost, 503);
    expectOk(retried);
    expect((await real.findSubscription(retried.body.subscription.id)).transactions).toHaveLength(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
  });

  it('never starts two Pro subscriptions: the monthly and the yearly invoice paid at the same time charge one of them', async () => {
    // Prepare: both invoices are asked for before either is paid, as two tabs would.
    const buyer = await suite.api.signIn('two-prices-at-once');
    const [monthly, yearly] = await Promise.all([checkoutInvoice(buyer, 'pro-monthly'), checkoutInvoice(buyer, 'pro-yearly')]);

    // Act
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => fulfil(buyer, (index % 2 === 0 ? monthly : yearly).id, 'fake-valid-visa-nonce')),
    );
    const screen = await suite.api.call(routes.showSubscriptionScreen, { as: buyer });

    // Assess
    const paid = answers.flatMap((answer) => (answer.ok ? [answer.body] : []));
    const refused = answers.flatMap((answer) => (!answer.ok && answer.status === 409 ? [answer] : []));
    expect(paid.length + refused.length).toBe(answers.length);
    expect(new Set(paid.map((body) => body.invoice.id)).size).toBe(1);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer.body.message).toMatch(/Pro/);
    const gateway = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    const started = await Promise.all(
      [monthly, yearly].map((invoice) =>
        gateway.findSubscription(`s_${invoice.id}`).then(
          () => 1,
          () => 0,
        ),
      ),
    );
    expect(started.reduce((sum, one) => sum + one, 0)).toBe(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
    expectOk(screen);
    expect(screen.body.subscription?.id).toBe(paid[0]?.subscription.id);
  });

  it('refuses to pay the other price’s invoice once Pro is paid, charging nothing', async () => {
    // Prepare
    const buyer = await suite.api.signIn('other-price-later');
    const [monthly, yearly] = await Promise.all([checkoutInvoice(buyer, 'pro-monthly'), checkoutInvoice(buyer, 'pro-yearly')]);
    expectOk(await fulfil(buyer, monthly.id, 'fake-valid-visa-nonce'));

    // Act
    const second = await fulfil(buyer, yearly.id, 'fake-valid-visa-nonce');

    // Assess
    expectError(second, 409);
    expect((second.body as { message: string }).message).toMatch(/on Pro already/);
    const gateway = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    await expect(gateway.findSubscription(`s_${yearly.id}`)).rejects.toThrow();
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
  });

  it('refuses a second Pro subscription to someone who has one', async () => {
    // Prepare
    const buyer = await suite.api.signIn('already-pro');
    await subscribe(buyer);

    // Act
    const another = await suite.api.call(routes.getCheckoutInvoice, { query: { priceId: 'pro-yearly' }, as: buyer });

    // Assess
    expectError(another, 409);
  });
});

describe('a subscription over time', () => {
  it('goes past due when a renewal is declined: the subscriber is emailed and notified, keeps Pro, updates the card and is active again', async () => {
    // Prepare
    const buyer = await suite.api.signIn('renewal');
    const started = await subscribe(buyer, 'local-declines-later-visa-nonce');

    // Act: a month on, the renewal is declined and the gateway's webhooks arrive.
    await advanceGatewayClock(suite.runtime, 32);
    const pastDue = await suite.api.call(routes.showSubscriptionScreen, { as: buyer });
    const updated = await suite.api.call(routes.updateSubscriptionPaymentMethod, {
      params: { subscriptionProductId: started.id },
      body: { paymentMethodNonce: 'fake-valid-mastercard-nonce' },
      as: buyer,
    });

    // Assess
    expectOk(pastDue);
    expect(pastDue.body.subscription).toMatchObject({ id: started.id, status: 'Past Due', givesPro: true });
    expect(pastDue.body.subscription?.graceEndsAt).not.toBeNull();
    expect(pastDue.body.currentPlan.planId).toBe('pro');
    const failedMail = (await mailsTo(suite.runtime.mailDir, buyer.email)).find((mail) =>
      /failed/i.test(mail.headers.subject ?? ''),
    );
    expect(failedMail?.text).toMatch(/Update your card/);
    expectOk(updated);
    expect(updated.body.subscription).toMatchObject({ status: 'Active', paymentMethod: { cardType: 'MasterCard' } });
    // Whichever applies the recovery first tells the subscriber: this route, or the gateway's webhook racing it.
    await vi.waitFor(
      async () => {
        const notifications = await suite.api.call(routes.listUnseenNotifications, { as: buyer });
        expectOk(notifications);
        const kinds = notifications.body.items.map((item) => item.kind);
        expect(kinds).toEqual(expect.arrayContaining(['subscription-payment-failed', 'subscription-payment-recovered']));
      },
      { timeout: 5_000, interval: 100 },
    );
    // The first charge and the retry: two receipts' worth of payments, one each.
    expect(await paymentsOf(buyer.userId)).toHaveLength(2);
  });

  it('cancels for its subscriber only: no more charges, Pro to the end of the paid period, and again changes nothing', async () => {
    // Prepare
    const [buyer, stranger] = await Promise.all([suite.api.signIn('canceler'), suite.api.signIn('not-the-subscriber')]);
    const started = await subscribe(buyer);

    // Act
    const byStranger = await suite.api.call(routes.cancelSubscription, {
      params: { subscriptionProductId: started.id },
      as: stranger,
    });
    const canceled = await suite.api.call(routes.cancelSubscription, {
      params: { subscriptionProductId: started.id },
      as: buyer,
    });
    const again = await suite.api.call(routes.cancelSubscription, { params: { subscriptionProductId: started.id }, as: buyer });
    const home = await suite.api.call(routes.showTransferHome, { as: buyer });

    // Assess
    expectError(byStranger, 404);
    expectOk(canceled);
    expect(canceled.body.subscription).toMatchObject({ status: 'Canceled', givesPro: true, nextBillingDate: null });
    expect(canceled.body.subscription.proEndsAt).toBe(
      new Date(Date.parse(`${canceled.body.subscription.paidThroughDate}T00:00:00Z`) + 86_400_000).toISOString(),
    );
    expectOk(again);
    expect(again.body.subscription).toEqual(canceled.body.subscription);
    expectOk(home);
    expect(home.body.limits.planId).toBe('pro');
    const confirmation = (await mailsTo(suite.runtime.mailDir, buyer.email)).find((mail) =>
      /canceled/i.test(mail.headers.subject ?? ''),
    );
    expect(confirmation).toBeDefined();
  });
});

describe('a past-due balance paid with a new card', () => {
  it("recovers at once when the gateway's webhook comes late, and the late webhook charges and tells nothing more", async () => {
    // Prepare: past due
    const buyer = await suite.api.signIn('late-webhook-new-card');
    const started = await subscribe(buyer, 'local-declines-later-visa-nonce');
    await advanceGatewayClock(suite.runtime, 32);
    const before = await paymentsOf(buyer.userId);

    // Act: the gateway's webhooks held, as Braintree sends them when it gets to them, until the route has answered
    const [updated, recoveredAtOnce] = await whileGatewayWebhooksHeld(suite.runtime, async () => {
      const answer = await suite.api.call(routes.updateSubscriptionPaymentMethod, {
        params: { subscriptionProductId: started.id },
        body: { paymentMethodNonce: 'fake-valid-mastercard-nonce' },
        as: buyer,
      });
      return [answer, await paymentsOf(buyer.userId)] as const;
    });

    // Assess
    expectOk(updated);
    expect(updated.body.subscription).toMatchObject({ status: 'Active', paymentMethod: { cardType: 'MasterCard' } });
    expect(recoveredAtOnce).toHaveLength(before.length + 1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(before.length + 1);
    const notifications = await suite.api.call(routes.listUnseenNotifications, { as: buyer });
    expectOk(notifications);
    expect(notifications.body.items.filter((item) => item.kind === 'subscription-payment-recovered')).toHaveLength(1);
  });

  it('charges what is owed once when the card is saved in two tabs at the same time, and answers both', async () => {
    // Prepare: a month on, the renewal is declined and the subscription is past due.
    const buyer = await suite.api.signIn('two-tabs-new-card');
    const started = await subscribe(buyer, 'local-declines-later-visa-nonce');
    await advanceGatewayClock(suite.runtime, 32);
    const before = await paymentsOf(buyer.userId);

    // Act
    const answers = await Promise.all(
      Array.from({ length: 2 }, () =>
        suite.api.call(routes.updateSubscriptionPaymentMethod, {
          params: { subscriptionProductId: started.id },
          body: { paymentMethodNonce: 'fake-valid-mastercard-nonce' },
          as: buyer,
        }),
      ),
    );

    // Assess
    for (const answer of answers) {
      expectOk(answer);
      expect(answer.body.subscription).toMatchObject({ status: 'Active' });
    }
    const gateway = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    const charges = (await gateway.findSubscription(started.id)).transactions.filter((transaction) =>
      ['authorized', 'submitted_for_settlement', 'settling', 'settled'].includes(transaction.status),
    );
    expect(charges).toHaveLength(2);
    await vi.waitFor(async () => expect(await paymentsOf(buyer.userId)).toHaveLength(before.length + 1));
  });
});

describe('deleting the account', () => {
  it('cancels the subscription at the gateway first: nobody is charged for an account that is gone', async () => {
    // Prepare
    const buyer = await suite.api.signIn('leaving');
    const started = await subscribe(buyer);

    // Act
    const deleted = await suite.api.call(routes.deleteAccount, { as: buyer });

    // Assess
    expectOk(deleted);
    const gateway = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    expect((await gateway.findSubscription(started.id)).status).toBe('Canceled');
  });

  it('keeps the account when the gateway cannot be reached to cancel, and says to try again', async () => {
    // Prepare
    const buyer = await suite.api.signIn('leaving-offline');
    await subscribe(buyer);
    usePaymentGatewayForTests(createLocalPaymentGateway('http://127.0.0.1:9'));

    // Act
    const refused = await suite.api.call(routes.deleteAccount, { as: buyer });
    usePaymentGatewayForTests(undefined);
    const me = await suite.api.call(routes.getMe, { as: buyer });

    // Assess
    expectError(refused, 503);
    expectOk(me);
  });
});

describe('the gateway’s webhook', () => {
  const post = (form: { bt_signature: string; bt_payload: string }) =>
    fetch(`${suite.runtime.url}${routes.receiveBraintreeWebhook.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ bt_signature: form.bt_signature, bt_payload: form.bt_payload }).toString(),
    });
  let subscriber: SignedInUser;
  let subscriptionId: string;

  beforeAll(async () => {
    subscriber = await suite.api.signIn('webhook-subscriber');
    subscriptionId = (await subscribe(subscriber)).id;
  });

  it('refuses a bad signature with 401 and changes nothing', async () => {
    // Prepare
    const sample = await signer.webhookTesting.sampleNotification('subscription_canceled', subscriptionId);
    const otherKey = new braintree.BraintreeGateway({
      environment: braintree.Environment.Sandbox,
      ...LOCAL_GATEWAY_KEYS,
      privateKey: 'somebody-else',
    });
    const forged = await otherKey.webhookTesting.sampleNotification('subscription_canceled', subscriptionId);

    // Act
    const tampered = await post({ bt_signature: `${sample.bt_signature}0`, bt_payload: sample.bt_payload });
    const wrongKey = await post(forged);

    // Assess
    expect(tampered.status).toBe(401);
    expect(wrongKey.status).toBe(401);
    const { data } = await getDb().entities.subscription.get({ subscriptionId }).go();
    expect(data?.status).toBe('Active');
  });

  it('acknowledges a repeated delivery once and ignores it', async () => {
    // Prepare: a kind the gateway itself has not sent for this subscription (its samples are stamped to the second).
    const sample = await signer.webhookTesting.sampleNotification('subscription_trial_ended', subscriptionId);

    // Act
    const first = await post(sample);
    const repeat = await post(sample);

    // Assess
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ received: true, duplicate: true });
  });

  it('applies what the gateway says now, not what the notification claims', async () => {
    // Prepare: a forged-looking but validly signed "canceled" for a subscription that is active at the gateway.
    const sample = await signer.webhookTesting.sampleNotification('subscription_canceled', subscriptionId);

    // Act
    const answer = await post(sample);

    // Assess
    expect(answer.status).toBe(200);
    const { data } = await getDb().entities.subscription.get({ subscriptionId }).go();
    expect(data?.status).toBe('Active');
  });
});
