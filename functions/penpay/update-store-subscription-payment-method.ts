import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { PaymentDeclined } from '../lib/payments/gateway';
import { gatewayCustomerOf } from '../lib/payments/customers';
import { applyStoreGatewayState, hasEnded, openShopOf, requireOwnStoreSubscription } from './lib/store-subscriptions';

export const handler = createHandler(storeRoutes.updateStoreSubscriptionPaymentMethod, async ({ params, body, caller }) => {
  const db = getDb();
  const subscription = await requireOwnStoreSubscription(db, params.subscriptionProductId, caller.userId);
  if (hasEnded(subscription)) throw new Conflict('This subscription has ended: subscribe again to use a new card.');
  const [{ merchant, gateway }, customer] = await Promise.all([
    openShopOf(db, subscription),
    gatewayCustomerOf(db, caller.userId),
  ]);
  // The shop's own account keeps its own customers: the card is vaulted there, where it is charged.
  await gateway.ensureCustomer(customer);
  const card = await gateway.vaultPaymentMethod({
    customerId: customer.id,
    nonce: body.paymentMethodNonce,
    ...(body.deviceData ? { deviceData: body.deviceData } : {}),
  });
  let updated = await gateway.updateSubscription(subscription.subscriptionId, { paymentMethodToken: card.token });
  let declined: PaymentDeclined | undefined;
  if (updated.status === 'Past Due') {
    // The new card pays what is owed at once: waiting for the gateway's next retry would leave the customer in doubt.
    try {
      await gateway.retrySubscriptionCharge(subscription.subscriptionId);
    } catch (error) {
      if (!(error instanceof PaymentDeclined)) throw error;
      declined = error;
    }
    updated = await gateway.findSubscription(subscription.subscriptionId);
  }
  await applyStoreGatewayState(db, updated, new Date(), { merchant, paymentMethod: card });
  if (declined) {
    // The card is on the subscription all the same: the answer says so.
    throw new PaymentDeclined(declined.reason, `Your new card is saved, but it was declined too: ${declined.message}`);
  }
  return true;
});
