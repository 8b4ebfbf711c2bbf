import { expect } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import { type ApiClient, expectOk, type SignedInUser } from './api-client';
import type { TestRuntime } from './local-runtime';

/** A webhook the local gateway sent while its clock moved. */
export interface GatewayDelivery {
  merchantId: string;
  subscriptionId: string;
  kind: string;
  at: string;
  delivered: boolean;
}

/**
 * Moves the local payment gateway's clock by `days`; renewals fall due and their webhooks are
 * delivered before it answers (with those deliveries).
 */
export async function advanceGatewayClock(
  runtime: Pick<TestRuntime, 'paymentGatewayEndpoint'>,
  days: number,
): Promise<{ deliveries: GatewayDelivery[] }> {
  const answer = await fetch(`${runtime.paymentGatewayEndpoint}/__control/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceDays: days }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { deliveries: GatewayDelivery[] };
}

/**
 * Waits until every webhook the local gateway already sent (a checkout's, sent after its answer)
 * was delivered or given up on: a test that then swaps the shop's gateway knows no handler still
 * holds the one from before.
 */
export async function settleGatewayWebhooks(runtime: Pick<TestRuntime, 'paymentGatewayEndpoint'>): Promise<void> {
  const answer = await fetch(`${runtime.paymentGatewayEndpoint}/__control/webhooks/settle`, { method: 'POST' });
  expect(answer.status).toBe(200);
}

/**
 * Runs `act` with the local gateway's webhooks held, as Braintree's come when it gets to them: a
 * route then applies its change itself, and the late webhook must change nothing more. They are
 * released (and settled) when `act` ends, however it ends, so a failing call leaves no later test
 * waiting on held webhooks.
 */
export async function whileGatewayWebhooksHeld<T>(
  runtime: Pick<TestRuntime, 'paymentGatewayEndpoint'>,
  act: () => Promise<T>,
): Promise<T> {
  const held = await fetch(`${runtime.paymentGatewayEndpoint}/__control/webhooks/hold`, { method: 'POST' });
  expect(held.status).toBe(200);
  try {
    return await act();
  } finally {
    const released = await fetch(`${runtime.paymentGatewayEndpoint}/__control/webhooks/release`, { method: 'POST' });
    expect(released.status).toBe(200);
    await settleGatewayWebhooks(runtime);
  }
}

/**
 * Deletes (present false) or brings back (present true) a Control Panel discount of a merchant at
 * the local payment gateway: a subscription inheriting from a missing one is refused (92013).
 */
export async function setGatewayDiscount(
  runtime: Pick<TestRuntime, 'paymentGatewayEndpoint'>,
  merchantId: string,
  discountId: string,
  present: boolean,
): Promise<void> {
  const answer = await fetch(
    `${runtime.paymentGatewayEndpoint}/__control/merchants/${encodeURIComponent(merchantId)}/discounts/${encodeURIComponent(discountId)}`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ present }) },
  );
  expect(answer.status).toBe(200);
}

/** Every payment stored for a customer, as the table holds them. */
export const paymentsOf = async (customerId: string) =>
  (await getDb().entities.payment.query.byCustomer({ customerId }).go({ pages: 'all' })).data;

/**
 * Buys the monthly Pro plan as a person would at /checkout (the local gateway's test card
 * nonce), and returns what paying answered.
 */
export async function subscribeToPro(api: ApiClient, user: SignedInUser) {
  const invoice = await api.call(routes.getCheckoutInvoice, { query: { priceId: 'pro-monthly' }, as: user });
  expectOk(invoice);
  const paid = await api.call(routes.fulfillSubscriptionInvoice, {
    params: { invoiceId: invoice.body.invoice.id },
    body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
    as: user,
  });
  expectOk(paid);
  return paid.body;
}
