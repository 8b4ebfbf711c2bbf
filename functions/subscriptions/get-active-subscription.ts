import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { givesPro, readProSubscription } from '../lib/payments/pro-plan-access';
import { toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.getActiveSubscription, async ({ caller }) => {
  const now = new Date();
  const subscription = await readProSubscription(getDb(), caller.userId);
  return { subscription: subscription && givesPro(subscription, now) ? toSubscriptionView(subscription, now) : null };
});
