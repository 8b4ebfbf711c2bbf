import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { cancelAtGateway, hasEnded } from '../lib/payments/subscription-changes';
import { applyStoreGatewayState, openShopOf, requireOwnStoreSubscription } from './lib/store-subscriptions';

export const handler = createHandler(storeRoutes.cancelStoreSubscription, async ({ params, caller }) => {
  const db = getDb();
  const subscription = await requireOwnStoreSubscription(db, params.subscriptionProductId, caller.userId);
  // Canceling again changes nothing and answers the same (without opening the shop's keys).
  if (hasEnded(subscription)) return true;
  const { merchant, gateway } = await openShopOf(db, subscription);
  const canceled = await cancelAtGateway(gateway, subscription);
  // Whoever applies the cancellation first (this route, or the gateway's webhook racing it) counts it and confirms it by email.
  if (canceled) await applyStoreGatewayState(db, canceled, new Date(), { merchant });
  return true;
});
