import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { PaymentGatewayUnavailable, type PaymentGateway, PRO_DISCOUNT_ID } from '../../functions/lib/payments/gateway';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { usePaymentGatewayForTests } from '../../functions/lib/payments/payment-gateway';
import { applyGatewayState } from '../../functions/subscriptions/lib/subscriptions';
import { PLATFORM_SELLER_ID } from '../../functions/lib/payments/pro-plan-access';
import type { CreateProDiscountCodeBody } from '../../shared/schemas/discounts';
import { routes } from '../../shared/routes';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsArriving } from '../support/mail';
import { paymentsOf, setGatewayDiscount } from '../support/payments';
import { LOCAL_GATEWAY_KEYS } from '../../shared/payments/local-gateway';

const suite = apiSuite();

type CodeRequest = Partial<CreateProDiscountCodeBody> & Pick<CreateProDiscountCodeBody, 'code' | 'kind' | 'value'>;

let admin: SignedInUser;

beforeAll(async () => {
  admin = await suite.api.signIn('pro-codes-admin', { superuser: true });
});

const createCode = (body: CodeRequest, as: SignedInUser = admin) =>
  suite.api.call(routes.createProDiscountCode, { body: body as CreateProDiscountCodeBody, as });

async function code(body: CodeRequest) {
  const answer = await createCode(body);
  expectOk(answer);
  return answer.body;
}

const checkoutWith = (user: SignedInUser, discountCode?: string, priceId: 'pro-monthly' | 'pro-yearly' = 'pro-monthly') =>
  suite.api.call(routes.getCheckoutInvoice, { query: { priceId, ...(discountCode ? { discountCode } : {}) }, as: user });

async function invoiceWith(user: SignedInUser, discountCode?: string, priceId: 'pro-monthly' | 'pro-yearly' = 'pro-monthly') {
  const answer = await checkoutWith(user, discountCode, priceId);
  expectOk(answer);
  return answer.body.invoice;
}

const fulfil = (user: SignedInUser, invoiceId: string, nonce = 'fake-valid-visa-nonce') =>
  suite.api.call(routes.fulfillSubscriptionInvoice, { params: { invoiceId }, body: { paymentMethodNonce: nonce }, as: user });

const usesOf = async (text: string) =>
  (
    await getDb()
      .entities.discountCode.get({ merchantAccountId: PLATFORM_SELLER_ID, codeKey: text.toLowerCase() })
      .go({ consistent: true })
  ).data?.usesCount;

const messageOf = (answer: { body: unknown }) => (answer.body as { message?: string }).message ?? '';

const gateway = () => createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);

describe('a superuser managing the Pro plan’s codes', () => {
  it('creates, lists and deactivates codes; nobody else may', async () => {
    // Prepare
    const person = await suite.api.signIn('pro-codes-not-admin');

    // Act
    const created = await createCode({ code: 'Launch20', kind: 'percent', value: 20, maxUses: 100, appliesTo: 'every' });
    const sameInOtherCase = await createCode({ code: 'LAUNCH20', kind: 'amount', value: 100 });
    const tooMuch = await createCode({ code: 'ALLOFIT', kind: 'percent', value: 150 });
    const byPerson = await createCode({ code: 'MINE', kind: 'percent', value: 50 }, person);
    const listByPerson = await suite.api.call(routes.listProDiscountCodes, { as: person });
    const anonymous = await suite.api.call(routes.listProDiscountCodes);
    const deactivated = await suite.api.call(routes.deactivateProDiscountCode, { params: { code: 'launch20' }, as: admin });
    const unknown = await suite.api.call(routes.deactivateProDiscountCode, { params: { code: 'NOSUCH' }, as: admin });
    const listed = await suite.api.call(routes.listProDiscountCodes, { as: admin });

    // Assess
    expectOk(created);
    expect(created.body).toMatchObject({
      code: 'Launch20',
      kind: 'percent',
      value: 20,
      currency: 'USD',
      maxUses: 100,
      usesCount: 0,
      appliesTo: 'every',
      active: true,
    });
    expectError(sameInOtherCase, 409);
    expectError(tooMuch, 400);
    expectError(byPerson, 403);
    expectError(listByPerson, 403);
    expectError(anonymous, 401);
    expectOk(deactivated);
    expect(deactivated.body.active).toBe(false);
    expectError(unknown, 404);
    expectOk(listed);
    expect(listed.body.items.find((item) => item.code === 'Launch20')).toMatchObject({ active: false });
    expect(listed.body.items.some((item) => item.code === 'MINE')).toBe(false);
  });
});

describe('paying for Pro with a code', () => {
  it('prices the code on the server, charges the discounted first cycle at the gateway, and the receipt names it', async () => {
    // Prepare
    await code({ code: 'SPRING25', kind: 'percent', value: 25 });
    const buyer = await suite.api.signIn('pro-code-buyer');

    // Act
    const invoice = await invoiceWith(buyer, 'spring25');
    const paid = await fulfil(buyer, invoice.id);

    // Assess: 25% off $12.00 is $3.00, off the first charge only.
    expect(invoice.total).toEqual({ amountMinor: 900, currency: 'USD' });
    expect(invoice.discount).toEqual({ code: 'SPRING25', saving: { amountMinor: 300, currency: 'USD' }, appliesTo: 'first' });
    expectOk(paid);
    expect(paid.body.invoice).toMatchObject({ status: 'paid', total: { amountMinor: 900 } });
    const atGateway = await gateway().findSubscription(paid.body.subscription.id);
    expect(atGateway.transactions.map((transaction) => transaction.amount)).toEqual(['9.00']);
    // The discount's one cycle is spent: renewals are at the full price.
    expect(atGateway.discounts ?? []).toEqual([]);
    expect((await paymentsOf(buyer.userId)).map((payment) => payment.amountMinor)).toEqual([900]);
    const receipts = await mailsArriving(suite.runtime.mailDir, buyer.email, {
      match: (mail) => /receipt/i.test(mail.headers.subject ?? ''),
    });
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('$9.00');
    expect(receipts[0]?.text).toContain('$3.00 off with SPRING25');
    expect(await usesOf('SPRING25')).toBe(1);
  });

  it('names the saving on the one receipt when the gateway’s webhook races the route that charged', async () => {
    // Prepare: from the moment the gateway has charged until the route answers, the webhook's
    // work (apply the gateway's state: record new charges, send their receipts) runs again and again.
    await code({ code: 'RACE25', kind: 'percent', value: 25 });
    const buyer = await suite.api.signIn('pro-code-racer');
    const invoice = await invoiceWith(buyer, 'RACE25');
    const real = gateway();
    let routeAnswered = false;
    let webhookRuns = 0;
    let charged: (subscriptionId: string) => void = () => undefined;
    // Started from the test, not from inside the route's call: the route's table units are its own.
    const webhookRacing = new Promise<string>((resolve) => (charged = resolve)).then(async (subscriptionId) => {
      while (!routeAnswered) {
        await applyGatewayState(getDb(), await real.findSubscription(subscriptionId), new Date());
        webhookRuns += 1;
      }
    });
    usePaymentGatewayForTests({
      ...real,
      environment: real.environment,
      createSubscription: async (request) => {
        const created = await real.createSubscription(request);
        charged(created.id);
        return created;
      },
    });

    // Act
    let paid: Awaited<ReturnType<typeof fulfil>>;
    try {
      paid = await fulfil(buyer, invoice.id);
    } finally {
      routeAnswered = true;
      usePaymentGatewayForTests(undefined);
    }
    await webhookRacing;

    // Assess: one charge, one record and one receipt, each naming the code's saving.
    expectOk(paid);
    expect(webhookRuns).toBeGreaterThan(0);
    const payments = await paymentsOf(buyer.userId);
    expect(payments.map((payment) => [payment.amountMinor, payment.description])).toEqual([
      [900, 'Transfer Pro, monthly, $3.00 off with RACE25'],
    ]);
    const receipts = await mailsArriving(suite.runtime.mailDir, buyer.email, {
      match: (mail) => /receipt/i.test(mail.headers.subject ?? ''),
    });
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('$3.00 off with RACE25');
  });

  it('takes an amount off every charge of the yearly price when the code says every charge', async () => {
    // Prepare
    await code({ code: 'LOYAL', kind: 'amount', value: 2_000, appliesTo: 'every' });
    const buyer = await suite.api.signIn('pro-code-yearly');

    // Act
    const invoice = await invoiceWith(buyer, 'LOYAL', 'pro-yearly');
    const paid = await fulfil(buyer, invoice.id);

    // Assess
    expect(invoice.total.amountMinor).toBe(10_000);
    expectOk(paid);
    const atGateway = await gateway().findSubscription(paid.body.subscription.id);
    expect(atGateway.transactions.map((transaction) => transaction.amount)).toEqual(['100.00']);
    expect(atGateway.discounts).toEqual([{ id: PRO_DISCOUNT_ID, amount: '20.00', numberOfBillingCycles: null }]);
  });

  it('refuses, with the reason, a code that is unknown, deactivated, expired or not started, and prices without one still', async () => {
    // Prepare
    const day = 24 * 60 * 60 * 1000;
    await Promise.all([
      code({ code: 'SOONOVER', kind: 'percent', value: 10, endsAt: new Date(Date.now() + 1_500).toISOString() }),
      code({ code: 'NEXTWEEK', kind: 'percent', value: 10, startsAt: new Date(Date.now() + 7 * day).toISOString() }),
      code({ code: 'PULLED', kind: 'percent', value: 10 }),
    ]);
    expectOk(await suite.api.call(routes.deactivateProDiscountCode, { params: { code: 'PULLED' }, as: admin }));
    const buyer = await suite.api.signIn('pro-code-refused');
    await new Promise((resolve) => setTimeout(resolve, 1_600));

    // Act
    const [unknown, pulled, expired, notYet] = await Promise.all([
      checkoutWith(buyer, 'NOPE'),
      checkoutWith(buyer, 'PULLED'),
      checkoutWith(buyer, 'SOONOVER'),
      checkoutWith(buyer, 'NEXTWEEK'),
    ]);

    // Assess
    for (const answer of [unknown, pulled, expired, notYet]) expectError(answer, 400, 'DISCOUNT_CODE_REFUSED');
    expect(messageOf(unknown)).toMatch(/no Pro plan discount code NOPE/);
    expect(messageOf(pulled)).toMatch(/no Pro plan discount code PULLED/);
    expect(messageOf(expired)).toMatch(/SOONOVER has expired/);
    expect(messageOf(notYet)).toMatch(/NEXTWEEK is not valid yet/);
    expect((await invoiceWith(buyer)).total.amountMinor).toBe(1_200);
  });

  it('gives a declined payment’s use back, and holds a once-per-person code to one paid use per person', async () => {
    // Prepare
    await code({ code: 'WELCOME', kind: 'amount', value: 500, oncePerCustomer: true, maxUses: 1 });
    const [buyer, other] = await Promise.all([suite.api.signIn('pro-once-buyer'), suite.api.signIn('pro-once-other')]);
    const invoice = await invoiceWith(buyer, 'WELCOME');

    // Act
    const declined = await fulfil(buyer, invoice.id, 'fake-processor-declined-visa-nonce');
    const usesAfterDecline = await usesOf('WELCOME');
    const paid = await fulfil(buyer, invoice.id);
    const otherTries = await checkoutWith(other, 'WELCOME');

    // Assess
    expectError(declined, 402);
    expect(usesAfterDecline).toBe(0);
    expectOk(paid);
    expect(paid.body.invoice.total.amountMinor).toBe(700);
    expectError(otherTries, 409, 'DISCOUNT_CODE_USED_UP');
    expect(messageOf(otherTries)).toMatch(/WELCOME has been used up/);
    expect(await usesOf('WELCOME')).toBe(1);
  });

  it('gives the use back when the gateway refuses the subscription outright (its Control Panel discount is missing): the next person gets the code', async () => {
    // Prepare: a one-use code, and the platform's Braintree without the discount codes inherit from.
    await code({ code: 'ONLYONE', kind: 'percent', value: 50, maxUses: 1 });
    const [refusedBuyer, nextBuyer] = await Promise.all([
      suite.api.signIn('pro-refused-buyer'),
      suite.api.signIn('pro-next-buyer'),
    ]);
    const refusedInvoice = await invoiceWith(refusedBuyer, 'ONLYONE');
    await setGatewayDiscount(suite.runtime, LOCAL_GATEWAY_KEYS.merchantId, PRO_DISCOUNT_ID, false);

    // Act
    let refused: Awaited<ReturnType<typeof fulfil>>;
    try {
      refused = await fulfil(refusedBuyer, refusedInvoice.id);
    } finally {
      await setGatewayDiscount(suite.runtime, LOCAL_GATEWAY_KEYS.merchantId, PRO_DISCOUNT_ID, true);
    }
    const usesAfterRefusal = await usesOf('ONLYONE');
    const nextInvoice = await invoiceWith(nextBuyer, 'ONLYONE');
    const nextPaid = await fulfil(nextBuyer, nextInvoice.id);

    // Assess: the refusal charged nothing and counted nothing; the code's one use went to the next person.
    expectError(refused, 500);
    expect(usesAfterRefusal).toBe(0);
    await expect(gateway().findSubscription(`s_${refusedInvoice.id}`)).rejects.toThrow(/not known/);
    expect(await paymentsOf(refusedBuyer.userId)).toEqual([]);
    expectOk(nextPaid);
    expect(nextPaid.body.invoice.total.amountMinor).toBe(600);
    expect(await usesOf('ONLYONE')).toBe(1);
    expectError(await checkoutWith(refusedBuyer, 'ONLYONE'), 409, 'DISCOUNT_CODE_USED_UP');
  });

  it('keeps the use claimed when the answer to the subscription is lost (a timeout): nobody else gets it, and the resumed payment keeps it', async () => {
    // Prepare: a one-use code; the gateway makes the subscription, but its answer never arrives.
    await code({ code: 'LOSTONE', kind: 'percent', value: 50, maxUses: 1 });
    const [buyer, other] = await Promise.all([suite.api.signIn('pro-lost-buyer'), suite.api.signIn('pro-lost-other')]);
    const invoice = await invoiceWith(buyer, 'LOSTONE');
    const real = gateway();
    const losesAnswers: PaymentGateway = {
      ...real,
      environment: real.environment,
      createSubscription: async (request) => {
        await real.createSubscription(request);
        throw new PaymentGatewayUnavailable(new Error('timed out after 10000 ms'));
      },
    };
    usePaymentGatewayForTests(losesAnswers);

    // Act
    let lost: Awaited<ReturnType<typeof fulfil>>;
    try {
      lost = await fulfil(buyer, invoice.id);
    } finally {
      usePaymentGatewayForTests(undefined);
    }
    const usesWhileInDoubt = await usesOf('LOSTONE');
    const otherTries = await checkoutWith(other, 'LOSTONE');
    const resumed = await fulfil(buyer, invoice.id);

    // Assess
    expectError(lost, 503);
    expect(usesWhileInDoubt).toBe(1);
    expectError(otherTries, 409, 'DISCOUNT_CODE_USED_UP');
    expectOk(resumed);
    expect(resumed.body.invoice.total.amountMinor).toBe(600);
    expect((await real.findSubscription(resumed.body.subscription.id)).transactions.map((charge) => charge.amount)).toEqual([
      '6.00',
    ]);
    expect(await usesOf('LOSTONE')).toBe(1);
  });

  it('gives exactly N discounted subscriptions when 20 people pay at once; the others are refused before any charge', async () => {
    // Prepare: 20 people, each with an invoice priced with a 4-use code (none is used yet).
    const limit = 4;
    await code({ code: 'RUSH', kind: 'percent', value: 50, maxUses: limit });
    const people = await Promise.all(Array.from({ length: 20 }, (_, index) => suite.api.signIn(`pro-rush-${index}`)));
    const invoices = await Promise.all(people.map((person) => invoiceWith(person, 'RUSH')));
    expect(invoices.every((invoice) => invoice.total.amountMinor === 600)).toBe(true);

    // Act
    const answers = await Promise.all(people.map((person, index) => fulfil(person, invoices[index]?.id ?? '')));

    // Assess: four subscriptions at $6.00, sixteen told the price without the code, nothing made for them.
    const paid = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(paid).toHaveLength(limit);
    expect(refused).toHaveLength(20 - limit);
    for (const answer of refused) {
      expectError(answer, 409, 'DISCOUNT_CODE_USED_UP');
      expect(messageOf(answer)).toMatch(
        /This code has just been used up: the price without it is \$12\.00\. Nothing was charged/,
      );
    }
    const atGateway = await Promise.all(
      invoices.map((invoice) =>
        gateway()
          .findSubscription(`s_${invoice.id}`)
          .then(
            (found) => found,
            () => null,
          ),
      ),
    );
    expect(atGateway.filter((found) => found !== null).map((found) => found?.transactions[0]?.amount)).toEqual(
      Array.from({ length: limit }, () => '6.00'),
    );
    expect(await usesOf('RUSH')).toBe(limit);
    const charged = await Promise.all(people.map((person) => paymentsOf(person.userId)));
    expect(charged.flat().map((payment) => payment.amountMinor)).toEqual(Array.from({ length: limit }, () => 600));

    // Act 2: a refused person pays without the code.
    const refusedPerson = people[answers.findIndex((answer) => answer.status === 409)] as SignedInUser;
    const fullPrice = await invoiceWith(refusedPerson);
    const paidFull = await fulfil(refusedPerson, fullPrice.id);

    // Assess 2
    expect(fullPrice.total.amountMinor).toBe(1_200);
    expect(fullPrice.discount).toBeNull();
    expectOk(paidFull);
  });
});
