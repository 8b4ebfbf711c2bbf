import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listStoreSubscriptionsOf, readSubscriptionNames, toStoreSubscriptionView } from './lib/store-subscription-list';

export const handler = createHandler(storeRoutes.listMySubscriptions, async ({ caller }) => {
  const db = getDb();
  const subscriptions = await listStoreSubscriptionsOf(db, caller.userId);
  const names = await readSubscriptionNames(db, subscriptions);
  return {
    items: subscriptions.map((subscription) =>
      toStoreSubscriptionView(subscription, {
        merchant: names.merchants.get(subscription.sellerId),
        product: names.products.get(subscription.productId),
        grade: names.grades.get(subscription.priceId),
      }),
    ),
  };
});
