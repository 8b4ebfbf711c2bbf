import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { gatewayCustomerOf } from '../lib/payments/customers';
import { replaceCard, savedButDeclined, SubscriptionEnded, hasEnded } from '../lib/payments/subscription-changes';
import { applyStoreGatewayState, openShopOf, requireOwnStoreSubscription } from './lib/store-subscriptions';

export const handler = createHandler(storeRoutes.updateStoreSubscriptionPaymentMethod, async ({ params, body, caller }) => {
  const db = getDb();
  const subscription = await requireOwnStoreSubscription(db, params.subscriptionProductId, caller.userId);
  // Refused before the shop's keys are opened.
  if (hasEnded(subscription)) throw new SubscriptionEnded();
  const [{ merchant, gateway }, customer] = await Promise.all([
    openShopOf(db, subscription),
    gatewayCustomerOf(db, caller.userId),
  ]);
  const { updated, card, declined } = await replaceCard(db, gateway, subscription, customer, body);
  await applyStoreGatewayState(db, updated, new Date(), { merchant, paymentMethod: card });
  // The card is on the subscription all the same: the answer says so.
  if (declined) throw savedButDeclined(declined);
  return true;
});
