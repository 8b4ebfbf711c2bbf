import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { PLAN_LIMITS } from '../../shared/transfers/plans';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { givesPro, readProSubscription } from '../lib/payments/pro-plan-access';
import { upgradesSeo } from './lib/screens';
import { proProductStock, toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.showUpgradesScreen, async ({ caller }) => {
  const stock = proProductStock();
  if (caller.kind !== 'user') {
    return { seo: upgradesSeo, signedIn: false, currentPlan: PLAN_LIMITS.free, stock, subscription: null };
  }
  const now = new Date();
  const subscription = await readProSubscription(getDb(), caller.userId);
  return {
    seo: upgradesSeo,
    signedIn: true,
    currentPlan: givesPro(subscription, now) ? PLAN_LIMITS.pro : PLAN_LIMITS.free,
    stock,
    subscription: subscription ? toSubscriptionView(subscription, now) : null,
  };
});
