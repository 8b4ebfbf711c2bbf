import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { cancelAtGateway } from '../lib/payments/subscription-changes';
import { applyGatewayState, requireOwnSubscription } from './lib/subscriptions';
import { toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.cancelSubscription, async ({ params, caller }) => {
  const db = getDb();
  const subscription = await requireOwnSubscription(db, params.subscriptionProductId, caller.userId);
  const canceled = await cancelAtGateway(await paymentGateway(), subscription);
  const now = new Date();
  // Whoever applies the cancellation first (this route, or the gateway's webhook racing it) confirms it by email.
  const stored = (canceled && (await applyGatewayState(db, canceled, now))) || subscription;
  return { subscription: toSubscriptionView(stored, now) };
});
