import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { Conflict, NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { applyStoreGatewayState, keepGatewayAddOns, openShopOf, requireOwnStoreSubscription } from './lib/store-subscriptions';

export const handler = createHandler(storeRoutes.removeStoreSubscriptionAddOn, async ({ params, caller }) => {
  const db = getDb();
  const subscription = await requireOwnStoreSubscription(db, params.subscriptionProductId, caller.userId);
  if (!subscription.addOns?.some((addOn) => addOn.addOnId === params.addOnId)) {
    throw new NotFound('This add-on is not on your subscription.');
  }
  if (subscription.status !== 'Active') {
    throw new Conflict('Add-ons can be changed on an active subscription only: update your card first if a payment failed.');
  }
  const { merchant, gateway } = await openShopOf(db, subscription);
  // Not prorated: Braintree refunds nothing for the current cycle, and the next one is charged without it.
  const updated = await gateway.updateSubscription(subscription.subscriptionId, { removeAddOns: [params.addOnId] });
  const now = new Date();
  const stored = await applyStoreGatewayState(db, updated, now, { merchant });
  if (stored) await keepGatewayAddOns(db, stored, updated, null, now);
  return true;
});
