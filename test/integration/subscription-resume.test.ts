import braintree from 'braintree';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { PLATFORM_SELLER_ID } from '../../functions/lib/payments/pro-plan-access';
import { resumedSubscriptionIdFor } from '../../functions/lib/payments/subscription-resume';
import { LOCAL_GATEWAY_KEYS } from '../../shared/payments/local-gateway';
import { routes } from '../../shared/routes';
import { PRO_PRODUCT_ID } from '../../shared/transfers/pro-plan';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { advanceGatewayClock, paymentsOf, subscribeToPro } from '../support/payments';

const suite = apiSuite();
const signer = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, ...LOCAL_GATEWAY_KEYS });
const gateway = () => createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** The "back on" mails a subscriber got. */
const resumedMails = async (user: SignedInUser) =>
  (await mailsTo(suite.runtime.mailDir, user.email)).filter((mail) => /back on/i.test(mail.headers.subject ?? ''));
/** A day as the mails write it: "March 4, 2027". */
const spelledOut = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

async function subscribeAndCancel(user: SignedInUser) {
  const paid = await subscribeToPro(suite.api, user);
  const canceled = await suite.api.call(routes.cancelSubscription, {
    params: { subscriptionProductId: paid.subscription.id },
    as: user,
  });
  expectOk(canceled);
  return canceled.body.subscription;
}

const resume = (user: SignedInUser, subscriptionProductId: string) =>
  suite.api.call(routes.resumeSubscription, { params: { subscriptionProductId }, as: user });

/** Every transaction the local gateway holds for these subscriptions. */
async function gatewayChargesOf(...subscriptionIds: string[]) {
  const listed = await gateway().listTransactions({
    from: new Date(Date.now() - 86_400_000).toISOString(),
    to: new Date(Date.now() + 400 * 86_400_000).toISOString(),
  });
  return listed.filter((transaction) => transaction.subscriptionId && subscriptionIds.includes(transaction.subscriptionId));
}

describe('resuming a canceled Pro plan', () => {
  it('is offered while the paid time runs, charges nothing, and renews on the day the old one would have', async () => {
    // Prepare
    const buyer = await suite.api.signIn('resumer');
    const canceled = await subscribeAndCancel(buyer);
    const renewsOn = dayAfter(canceled.paidThroughDate as string);
    expect(canceled.resumeRenewsOn).toBe(renewsOn);
    const checkout = await suite.api.call(routes.getCheckoutInvoice, { query: { priceId: 'pro-monthly' }, as: buyer });
    expectError(checkout, 409);
    expect(JSON.stringify(checkout.body)).toMatch(/resume/i);

    // Act
    const resumed = await resume(buyer, canceled.id);

    // Assess
    expectOk(resumed);
    expect(resumed.body.subscription).toMatchObject({
      id: resumedSubscriptionIdFor(canceled.id),
      status: 'Pending',
      givesPro: true,
      nextBillingDate: renewsOn,
      paidThroughDate: canceled.paidThroughDate,
      proEndsAt: null,
      resumeRenewsOn: null,
      paymentMethod: canceled.paymentMethod,
    });
    const atGateway = await gateway().findSubscription(resumed.body.subscription.id);
    expect(atGateway).toMatchObject({ status: 'Pending', nextBillingDate: renewsOn, transactions: [] });
    expect(await gatewayChargesOf(canceled.id, resumed.body.subscription.id)).toHaveLength(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
    const screen = await suite.api.call(routes.showSubscriptionScreen, { as: buyer });
    expectOk(screen);
    expect(screen.body.subscription?.id).toBe(resumed.body.subscription.id);
    expect(screen.body.currentPlan.planId).toBe('pro');
    const active = await suite.api.call(routes.getActiveSubscription, { as: buyer });
    expectOk(active);
    expect(active.body.subscription?.id).toBe(resumed.body.subscription.id);
    // Resuming again, the old id or the new, answers the same subscription.
    const again = await resume(buyer, canceled.id);
    expectOk(again);
    expect(again.body.subscription.id).toBe(resumed.body.subscription.id);
    // One mail says so, with when the next charge is and how much.
    const mails = await resumedMails(buyer);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.headers.subject).toBe('Your Transfer Pro plan is back on');
    expect(mails[0]?.text).toContain('Nothing was charged today.');
    expect(mails[0]?.text).toContain(`The next charge is $12.00 on ${spelledOut(renewsOn)}`);
    expect(mails[0]?.text).toContain(`${canceled.paymentMethod.cardType} ending in ${canceled.paymentMethod.last4}`);
  });

  it('lets nobody but the subscriber resume it', async () => {
    // Prepare
    const [buyer, stranger] = await Promise.all([suite.api.signIn('resume-owner'), suite.api.signIn('resume-stranger')]);
    const canceled = await subscribeAndCancel(buyer);

    // Act
    const byStranger = await resume(stranger, canceled.id);

    // Assess
    expectError(byStranger, 404);
    const { data } = await getDb().entities.subscription.get({ subscriptionId: canceled.id }).go();
    expect(data?.resumedAs).toBeUndefined();
    expect(await resumedMails(buyer)).toEqual([]);
    expect(await resumedMails(stranger)).toEqual([]);
    await expect(gateway().findSubscription(resumedSubscriptionIdFor(canceled.id))).rejects.toThrow();
  });

  it('makes one subscription for a double click, two tabs and a webhook racing them', async () => {
    // Prepare
    const buyer = await suite.api.signIn('resume-racer');
    const canceled = await subscribeAndCancel(buyer);
    const resumedId = resumedSubscriptionIdFor(canceled.id);
    const post = async (kind: braintree.WebhookNotificationKind, id: string) => {
      const sample = await signer.webhookTesting.sampleNotification(kind, id);
      return fetch(`${suite.runtime.url}${routes.receiveBraintreeWebhook.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ bt_signature: sample.bt_signature, bt_payload: sample.bt_payload }).toString(),
      });
    };

    // Act
    const [answers, hooks] = await Promise.all([
      Promise.all([resume(buyer, canceled.id), resume(buyer, canceled.id), resume(buyer, canceled.id)]),
      Promise.all([post('subscription_went_active', resumedId), post('subscription_canceled', canceled.id)]),
    ]);

    // Assess
    for (const answer of answers) {
      expectOk(answer);
      expect(answer.body.subscription).toMatchObject({ id: resumedId, status: 'Pending', givesPro: true });
    }
    for (const hook of hooks) expect(hook.status).toBe(200);
    const stored = await getDb().entities.subscription.query.byCustomer({ customerId: buyer.userId }).go({ pages: 'all' });
    expect(stored.data.map((subscription) => subscription.subscriptionId).sort()).toEqual([canceled.id, resumedId].sort());
    expect((await gateway().findSubscription(resumedId)).transactions).toHaveLength(0);
    expect(await gatewayChargesOf(canceled.id, resumedId)).toHaveLength(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(1);
    const slot = await getDb()
      .entities.subscriptionSlot.get({ customerId: buyer.userId, sellerId: PLATFORM_SELLER_ID, family: PRO_PRODUCT_ID })
      .go();
    expect(slot.data?.subscriptionId).toBe(resumedId);
    expect(await resumedMails(buyer)).toHaveLength(1);
  });

  it('is refused once the paid time has ended, and the checkout then works as for anyone', async () => {
    // Prepare: the paid time ran out (our copy says so; the API's clock is the real one).
    const buyer = await suite.api.signIn('resume-too-late');
    const canceled = await subscribeAndCancel(buyer);
    const past = new Date(Date.now() - 3 * 86_400_000);
    await getDb()
      .entities.subscription.patch({ subscriptionId: canceled.id })
      .set({ paidThroughDate: past.toISOString().slice(0, 10) })
      .go();
    await getDb()
      .entities.subscriptionSlot.patch({ customerId: buyer.userId, sellerId: PLATFORM_SELLER_ID, family: PRO_PRODUCT_ID })
      .set({ liveUntil: past.toISOString() })
      .go();

    // Act
    const tooLate = await resume(buyer, canceled.id);
    const screen = await suite.api.call(routes.showCheckoutScreen, { query: { priceId: 'pro-monthly' }, as: buyer });
    expectOk(screen);
    const paid = await suite.api.call(routes.fulfillSubscriptionInvoice, {
      params: { invoiceId: screen.body.invoice.id },
      body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
      as: buyer,
    });

    // Assess
    expectError(tooLate, 409);
    expect(JSON.stringify(tooLate.body)).toMatch(/subscribe again/i);
    expect(await resumedMails(buyer)).toEqual([]);
    expect(screen.body.subscription?.resumeRenewsOn).toBeNull();
    expect(screen.body.payment).not.toBeNull();
    expectOk(paid);
    expect(paid.body.subscription).toMatchObject({ status: 'Active', givesPro: true });
    await expect(gateway().findSubscription(resumedSubscriptionIdFor(canceled.id))).rejects.toThrow();
    expect(await paymentsOf(buyer.userId)).toHaveLength(2);
  });

  // Last: it moves the gateway's clock for this file's runtime.
  it('charges the resumed plan on its renewal day, once, and it is active again', async () => {
    // Prepare
    const buyer = await suite.api.signIn('resume-renewal');
    const canceled = await subscribeAndCancel(buyer);
    const resumed = await resume(buyer, canceled.id);
    expectOk(resumed);

    // Act: the renewal day comes at the gateway; its webhooks are delivered.
    await advanceGatewayClock(suite.runtime, 32);

    // Assess
    const { data } = await getDb().entities.subscription.get({ subscriptionId: resumed.body.subscription.id }).go();
    expect(data).toMatchObject({ status: 'Active' });
    expect(data?.paidThroughDate && data.paidThroughDate > (canceled.paidThroughDate as string)).toBe(true);
    expect((await gateway().findSubscription(resumed.body.subscription.id)).transactions).toHaveLength(1);
    expect(await paymentsOf(buyer.userId)).toHaveLength(2);
  });
});
