import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { createHandler } from '../lib/http/create-handler';
import { getDb } from '../lib/db/service';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { gatewayCustomerOf } from '../lib/payments/customers';
import { replaceCard, savedButDeclined } from '../lib/payments/subscription-changes';
import { applyGatewayState, requireOwnSubscription } from './lib/subscriptions';
import { toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.updateSubscriptionPaymentMethod, async ({ params, body, caller }) => {
  const db = getDb();
  const subscription = await requireOwnSubscription(db, params.subscriptionProductId, caller.userId);
  const [gateway, customer] = await Promise.all([paymentGateway(), gatewayCustomerOf(db, caller.userId)]);
  const { updated, card, declined } = await replaceCard(db, gateway, subscription, customer, body);
  const stored = (await applyGatewayState(db, updated, new Date(), card)) ?? subscription;
  const view = toSubscriptionView(stored, new Date());
  // The card is on the subscription all the same: the answer says so, with the subscription as it now is.
  if (declined) throw savedButDeclined(declined, { subscription: view });
  return { subscription: view };
});
