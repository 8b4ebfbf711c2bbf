import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { PAST_DUE_GRACE_DAYS } from '../../shared/transfers/pro-plan';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { entitlementEndsAt } from '../lib/payments/entitlement';
import { confirmCancellation } from '../lib/payments/payment-mail';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { billingPageUrl, describeSubscription } from './lib/pro-offer';
import { applyGatewayState, requireOwnSubscription } from './lib/subscriptions';
import { toSubscriptionView } from './lib/views';

const ENDED = new Set(['Canceled', 'Expired']);

export const handler = createHandler(subscriptionRoutes.cancelSubscription, async ({ params, caller }) => {
  const db = getDb();
  const subscription = await requireOwnSubscription(db, params.subscriptionProductId, caller.userId);
  // Canceling again changes nothing and answers the same.
  if (ENDED.has(subscription.status)) return { subscription: toSubscriptionView(subscription, new Date()) };
  const gateway = await paymentGateway();
  const canceled = await gateway.cancelSubscription(subscription.subscriptionId);
  const now = new Date();
  const stored = (await applyGatewayState(db, canceled, now)) ?? subscription;
  await confirmCancellation(db, stored, {
    description: describeSubscription(stored),
    endsAt: entitlementEndsAt(stored, PAST_DUE_GRACE_DAYS),
    billingUrl: billingPageUrl(),
    now,
  });
  return { subscription: toSubscriptionView(stored, now) };
});
