import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { createHandler } from '../lib/http/create-handler';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { PaymentDeclined } from '../lib/payments/gateway';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { gatewayCustomerOf } from '../lib/payments/customers';
import { applyGatewayState, requireOwnSubscription } from './lib/subscriptions';
import { toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.updateSubscriptionPaymentMethod, async ({ params, body, caller }) => {
  const db = getDb();
  const subscription = await requireOwnSubscription(db, params.subscriptionProductId, caller.userId);
  if (subscription.status === 'Canceled' || subscription.status === 'Expired') {
    throw new Conflict('This subscription has ended: subscribe again to use a new card.');
  }
  const [gateway, customer] = await Promise.all([paymentGateway(), gatewayCustomerOf(db, caller.userId)]);
  await gateway.ensureCustomer(customer);
  const card = await gateway.vaultPaymentMethod({
    customerId: customer.id,
    nonce: body.paymentMethodNonce,
    ...(body.deviceData ? { deviceData: body.deviceData } : {}),
  });
  let updated = await gateway.updateSubscription(subscription.subscriptionId, { paymentMethodToken: card.token });
  let declined: PaymentDeclined | undefined;
  if (updated.status === 'Past Due') {
    // The new card pays what is owed at once: waiting for the gateway's next retry would leave the subscriber in doubt.
    try {
      await gateway.retrySubscriptionCharge(subscription.subscriptionId);
    } catch (error) {
      if (!(error instanceof PaymentDeclined)) throw error;
      declined = error;
    }
    updated = await gateway.findSubscription(subscription.subscriptionId);
  }
  const stored = (await applyGatewayState(db, updated, new Date(), card)) ?? subscription;
  const view = toSubscriptionView(stored, new Date());
  if (declined) {
    // The card is on the subscription all the same: the answer says so, with the subscription as it now is.
    throw new PaymentDeclined(declined.reason, `Your new card is saved, but it was declined too: ${declined.message}`, {
      details: { subscription: view },
    });
  }
  return { subscription: view };
});
