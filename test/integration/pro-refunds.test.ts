import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentGateway, PaymentGatewayUnavailable } from '../../functions/lib/payments/gateway';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { usePaymentGatewayForTests } from '../../functions/lib/payments/payment-gateway';
import { routes } from '../../shared/routes';
import type { RefundProChargeBody } from '../../shared/schemas/pro-refunds';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { advanceGatewayClock, subscribeToPro } from '../support/payments';

const suite = apiSuite();

const messageOf = (answer: { body: unknown }) => (answer.body as { message?: string }).message ?? '';

/** A person on monthly Pro ($12.00, one charge) and that charge's transaction id. */
interface Subscriber {
  person: SignedInUser;
  transactionId: string;
}

async function subscriber(label: string): Promise<Subscriber> {
  const person = await suite.api.signIn(label);
  await subscribeToPro(suite.api, person);
  const found = await suite.api.call(routes.listProPaymentsOfPerson, { query: { person: person.username }, as: admin });
  expectOk(found);
  const transactionId = found.body.charges[0]?.payment.transactionId;
  if (!transactionId) throw new Error(`No Pro charge for ${label}`);
  return { person, transactionId };
}

const refund = (charge: Subscriber, body: RefundProChargeBody, as: SignedInUser = admin) =>
  suite.api.call(routes.refundProCharge, { params: { transactionId: charge.transactionId }, body, as });

/** Every refund and void the Pro plan's gateway was asked for. */
const gatewayCalls: { operation: 'refund' | 'void'; transactionId: string; amount?: string }[] = [];

/** Counts what reaches the gateway from here on (the real local gateway still does it); `outage` refuses to answer instead. */
function countGatewayCalls(options: { outage?: boolean } = {}): void {
  const real = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
  const wrapped: PaymentGateway = {
    ...real,
    refundTransaction: (request) => {
      gatewayCalls.push({ operation: 'refund', transactionId: request.transactionId, amount: request.amount });
      if (options.outage) return Promise.reject(new PaymentGatewayUnavailable());
      return real.refundTransaction(request);
    },
    voidTransaction: (id) => {
      gatewayCalls.push({ operation: 'void', transactionId: id });
      if (options.outage) return Promise.reject(new PaymentGatewayUnavailable());
      return real.voidTransaction(id);
    },
  };
  usePaymentGatewayForTests(wrapped);
}

afterEach(() => {
  usePaymentGatewayForTests(undefined);
  gatewayCalls.length = 0;
});

const gatewayStatusOf = async (charge: Subscriber) =>
  (await createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint).findTransaction(charge.transactionId)).status;

async function subscriptionScreenOf(person: SignedInUser) {
  const answer = await suite.api.call(routes.showSubscriptionScreen, { as: person });
  expectOk(answer);
  return answer.body;
}

let admin: SignedInUser;
// Charges settle a day after they are made, by the local gateway's clock: the ones refunded
// after settlement are made first, the clock moves a day, then the ones voided before it.
let settled: Subscriber;
let canceling: Subscriber;
let interrupted: Subscriber;
let voided: Subscriber;
let unsettled: Subscriber;

beforeAll(async () => {
  admin = await suite.api.signIn('pro-refunds-admin', { superuser: true });
  [settled, canceling, interrupted] = await Promise.all([
    subscriber('pro-refund-settled'),
    subscriber('pro-refund-cancel'),
    subscriber('pro-refund-outage'),
  ]);
  await advanceGatewayClock(suite.runtime, 1);
  [voided, unsettled] = await Promise.all([subscriber('pro-refund-void'), subscriber('pro-refund-unsettled')]);
});

describe('who may refund Pro charges', () => {
  it('is a superuser only; a person or charge that does not exist is a 404', async () => {
    // Prepare
    const person = await suite.api.signIn('pro-refund-not-admin');

    // Act
    const look = await suite.api.call(routes.listProPaymentsOfPerson, { query: { person: settled.person.username }, as: person });
    const refundAsPerson = await refund(settled, { reason: 'Mine' }, person);
    const nobody = await suite.api.call(routes.listProPaymentsOfPerson, { query: { person: 'nobody-here@example.com' }, as: admin });
    const madeUp = await suite.api.call(routes.refundProCharge, {
      params: { transactionId: 'nosuchcharge' },
      body: { reason: 'Test' },
      as: admin,
    });

    // Assess
    expectError(look, 403);
    expectError(refundAsPerson, 403);
    expectError(nobody, 404);
    expectError(madeUp, 404);
    expect(gatewayCalls).toEqual([]);
  });

  it('finds a person by username or email with their Pro charges and what is left of each', async () => {
    // Act
    const [byName, byEmail] = await Promise.all([
      suite.api.call(routes.listProPaymentsOfPerson, { query: { person: voided.person.username }, as: admin }),
      suite.api.call(routes.listProPaymentsOfPerson, { query: { person: voided.person.email }, as: admin }),
    ]);

    // Assess
    expectOk(byName);
    expectOk(byEmail);
    expect(byEmail.body).toEqual(byName.body);
    expect(byName.body.person).toMatchObject({ userId: voided.person.userId, email: voided.person.email });
    expect(byName.body.subscription).toMatchObject({ status: 'Active' });
    expect(byName.body.charges).toEqual([
      expect.objectContaining({
        payment: expect.objectContaining({ transactionId: voided.transactionId, amount: { amountMinor: 1_200, currency: 'USD' } }),
        refunded: { amountMinor: 0, currency: 'USD' },
        left: { amountMinor: 1_200, currency: 'USD' },
        refundsAsked: [],
      }),
    ]);
  });
});

describe('refunding a Pro charge not settled yet', () => {
  it('voids it whole once under a double click: one void at the gateway, both answered the same refund', async () => {
    // Prepare
    countGatewayCalls();

    // Act
    const [first, second] = await Promise.all([
      refund(voided, { reason: 'Charged by mistake', knownRefunds: 0 }),
      refund(voided, { reason: 'Charged by mistake', knownRefunds: 0 }),
    ]);

    // Assess
    expectOk(first);
    expectOk(second);
    expect(first.body.refund).toMatchObject({
      number: 1,
      status: 'succeeded',
      operation: 'void',
      amount: { amountMinor: 1_200, currency: 'USD' },
      reason: 'Charged by mistake',
    });
    expect(second.body.refund.refundId).toBe(first.body.refund.refundId);
    expect(gatewayCalls).toEqual([{ operation: 'void', transactionId: voided.transactionId }]);
    expect(await gatewayStatusOf(voided)).toBe('voided');
    expect(first.body.charge).toMatchObject({ refunded: { amountMinor: 1_200 }, left: { amountMinor: 0 } });
  });

  it('tells the person once (a receipt and a notification) and their subscription page shows the refund', async () => {
    // Act
    const [mails, unseen, screen] = await Promise.all([
      mailsTo(suite.runtime.mailDir, voided.person.email),
      suite.api.call(routes.listUnseenNotifications, { as: voided.person }),
      subscriptionScreenOf(voided.person),
    ]);

    // Assess
    const receipts = mails.filter((mail) => (mail.headers.subject ?? '').startsWith('Your refund'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.headers.subject).toMatch(/: \$12\.00$/);
    expect(receipts[0]?.text).toContain('Reason: Charged by mistake');
    expect(receipts[0]?.text).toContain('will not appear on your statement');
    expectOk(unseen);
    expect(unseen.body.items.filter((item) => item.kind === 'subscription-refunded')).toEqual([
      expect.objectContaining({ app: 'transfer', object: expect.objectContaining({ type: 'subscription', detail: '$12.00' }) }),
    ]);
    expect(screen.payments.find((payment) => payment.transactionId === voided.transactionId)?.refunds).toEqual([
      expect.objectContaining({ amount: { amountMinor: 1_200, currency: 'USD' }, operation: 'void', reason: 'Charged by mistake' }),
    ]);
  });

  it('refuses more once nothing is left, naming it', async () => {
    // Act
    const again = await refund(voided, { reason: 'Once more', amountMinor: 100 });

    // Assess
    expectError(again, 409, 'REFUND_TOO_LARGE');
    expect(again.body).toMatchObject({ leftMinor: 0 });
    expect(messageOf(again)).toMatch(/Nothing is left to refund on this payment/);
  });

  it('refuses part of it (only a whole void) and reserves nothing', async () => {
    // Prepare
    countGatewayCalls();

    // Act
    const part = await refund(unsettled, { reason: 'Goodwill', amountMinor: 500 });
    const after = await suite.api.call(routes.listProPaymentsOfPerson, { query: { person: unsettled.person.username }, as: admin });

    // Assess
    expectError(part, 409, 'PAYMENT_NOT_SETTLED');
    expect(messageOf(part)).toMatch(/has not settled yet/);
    expect(gatewayCalls).toEqual([]);
    expectOk(after);
    expect(after.body.charges[0]).toMatchObject({ left: { amountMinor: 1_200 }, refundsAsked: [] });
  });
});

describe('refunding a Pro charge after it settled', () => {
  it('refuses over what is left naming it; a part asked twice at once refunds once; then the whole refunds only what was left', async () => {
    // Prepare
    countGatewayCalls();

    // Act
    const tooMuch = await refund(settled, { reason: 'Outage', amountMinor: 1_201 });
    const [first, second] = await Promise.all([
      refund(settled, { reason: 'Outage last week', amountMinor: 400, knownRefunds: 0 }),
      refund(settled, { reason: 'Outage last week', amountMinor: 400, knownRefunds: 0 }),
    ]);
    const rest = await refund(settled, { reason: 'Asked to be refunded' });
    const more = await refund(settled, { reason: 'Again', amountMinor: 1 });
    const screen = await subscriptionScreenOf(settled.person);

    // Assess
    expectError(tooMuch, 409, 'REFUND_TOO_LARGE');
    expect(tooMuch.body).toMatchObject({ leftMinor: 1_200 });
    expect(messageOf(tooMuch)).toMatch(/Only \$12\.00 is left to refund on this payment/);
    expectOk(first);
    expectOk(second);
    expect(second.body.refund.refundId).toBe(first.body.refund.refundId);
    expect(first.body.refund).toMatchObject({ number: 1, operation: 'refund', amount: { amountMinor: 400 } });
    expectOk(rest);
    expect(rest.body.refund).toMatchObject({ number: 2, operation: 'refund', amount: { amountMinor: 800 } });
    expectError(more, 409, 'REFUND_TOO_LARGE');
    expect(gatewayCalls).toEqual([
      { operation: 'refund', transactionId: settled.transactionId, amount: '4.00' },
      { operation: 'refund', transactionId: settled.transactionId, amount: '8.00' },
    ]);
    expect(rest.body.charge).toMatchObject({ refunded: { amountMinor: 1_200 }, left: { amountMinor: 0 } });
    expect(rest.body.charge.refundsAsked.map((asked) => asked.status)).toEqual(['succeeded', 'succeeded']);
    expect(screen.payments.find((payment) => payment.transactionId === settled.transactionId)?.refunds).toEqual([
      expect.objectContaining({ amount: { amountMinor: 400, currency: 'USD' }, operation: 'refund', reason: 'Outage last week' }),
      expect.objectContaining({ amount: { amountMinor: 800, currency: 'USD' }, operation: 'refund', reason: 'Asked to be refunded' }),
    ]);
    const receipts = (await mailsTo(suite.runtime.mailDir, settled.person.email)).filter((mail) =>
      (mail.headers.subject ?? '').startsWith('Your refund'),
    );
    expect(receipts.map((mail) => mail.headers.subject?.replace(/^.*: /, ''))).toEqual(expect.arrayContaining(['$4.00', '$8.00']));
    expect(receipts).toHaveLength(2);
  });

  it('cancels the subscription in the same action when asked, and the receipt says so', async () => {
    // Act
    const refunded = await refund(canceling, { reason: 'Did not mean to renew', cancelSubscription: true });
    const screen = await subscriptionScreenOf(canceling.person);

    // Assess
    expectOk(refunded);
    expect(refunded.body.refund).toMatchObject({ status: 'succeeded', subscriptionCanceled: true, amount: { amountMinor: 1_200 } });
    expect(screen.subscription).toMatchObject({ status: 'Canceled' });
    const receipt = (await mailsTo(suite.runtime.mailDir, canceling.person.email)).find((mail) =>
      (mail.headers.subject ?? '').startsWith('Your refund'),
    );
    expect(receipt?.text).toContain('Your Pro plan was canceled with it');
  });

  it('survives a gateway out of reach: 503, nothing refunded; asking again refunds once', async () => {
    // Prepare
    countGatewayCalls({ outage: true });

    // Act
    const during = await refund(interrupted, { reason: 'Duplicate charge', knownRefunds: 0 });
    usePaymentGatewayForTests(undefined);
    countGatewayCalls();
    const after = await refund(interrupted, { reason: 'Duplicate charge', knownRefunds: 0 });

    // Assess
    expectError(during, 503);
    expectOk(after);
    expect(after.body.refund).toMatchObject({ number: 1, status: 'succeeded', amount: { amountMinor: 1_200 } });
    expect(after.body.charge.refundsAsked).toHaveLength(1);
    // The resumed claim looks for what reached the gateway first, then sends the refund once.
    expect(gatewayCalls.filter((call) => call.amount === '12.00')).toHaveLength(2);
    const refunds = (await mailsTo(suite.runtime.mailDir, interrupted.person.email)).filter((mail) =>
      (mail.headers.subject ?? '').startsWith('Your refund'),
    );
    expect(refunds).toHaveLength(1);
  });
});
