/**
 * A customer who deletes their account is never charged again: every subscription of theirs
 * that still bills is canceled at the gateway first, before anything of the account is deleted,
 * so a gateway that cannot be reached stops the deletion (503) instead of leaving a charge
 * running for nobody.
 */
import type { Db } from '../db/service';
import type { PaymentGateway } from './gateway';
import { syncSubscription } from './subscription-sync';

const STILL_BILLING = new Set(['Pending', 'Active', 'Past Due']);

export async function cancelSubscriptionsOf(
  db: Db,
  gateway: () => Promise<PaymentGateway>,
  customerId: string,
  now: Date,
): Promise<number> {
  const { data: subscriptions } = await db.entities.subscription.query.byCustomer({ customerId }).go({ pages: 'all' });
  const billing = subscriptions.filter((subscription) => STILL_BILLING.has(subscription.status));
  if (billing.length === 0) return 0;
  const payments = await gateway();
  for (const subscription of billing) {
    const canceled = await payments.cancelSubscription(subscription.subscriptionId);
    await syncSubscription(db, canceled, { now, describeCharge: (item) => item.productId });
  }
  return billing.length;
}
