import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { readProSubscription } from '../lib/payments/pro-plan-access';
import { resumeOnce } from '../lib/payments/subscription-resume';
import { requireOwnSubscription } from './lib/subscriptions';
import { toSubscriptionView } from './lib/views';

/**
 * Cancel cancels at Braintree at once and keeps the paid time; resume starts a new subscription
 * on the saved card whose first charge is the day after that paid time (subscription-resume.ts).
 */
export const handler = createHandler(subscriptionRoutes.resumeSubscription, async ({ params, caller }) => {
  const db = getDb();
  const [subscription, newest] = await Promise.all([
    requireOwnSubscription(db, params.subscriptionProductId, caller.userId),
    readProSubscription(db, caller.userId),
  ]);
  // Only the plan the caller has now: an older canceled one is history, whatever replaced it.
  const current = newest?.subscriptionId === subscription.subscriptionId || newest?.resumedFrom === subscription.subscriptionId;
  if (!current) throw new Conflict('This is not your current plan: manage your plan on your subscription page.');
  const resumed = await resumeOnce(db, await paymentGateway(), subscription, () => new Date());
  return { subscription: toSubscriptionView(resumed, new Date()) };
});
