import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { PRO_PRODUCT } from '../../shared/transfers/pro-plan';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { confirmResume } from '../lib/payments/payment-mail';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { readProSubscription } from '../lib/payments/pro-plan-access';
import { resumeBillingDateOf, resumeOnce } from '../lib/payments/subscription-resume';
import { requireOwnSubscription } from './lib/subscriptions';
import { describeSubscription, proVoice } from './lib/pro-offer';
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
  const { subscription: resumed, resumedNow } = await resumeOnce(db, await paymentGateway(), subscription, () => new Date());
  const now = new Date();
  // Only the call that made the resumed subscription tells the subscriber: a double click, a
  // second tab or a retry answers the same plan without a second mail.
  const nextChargeOn = resumed.nextBillingDate ?? (resumed.paidThroughDate && resumeBillingDateOf(resumed.paidThroughDate));
  if (resumedNow && nextChargeOn) {
    await confirmResume(db, proVoice(), resumed, {
      planName: PRO_PRODUCT.name,
      description: describeSubscription(resumed),
      nextChargeOn,
      now,
    });
  }
  return { subscription: toSubscriptionView(resumed, now) };
});
