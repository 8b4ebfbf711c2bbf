import { expect } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
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

/** Every payment stored for a customer, as the table holds them. */
export const paymentsOf = async (customerId: string) =>
  (await getDb().entities.payment.query.byCustomer({ customerId }).go({ pages: 'all' })).data;
