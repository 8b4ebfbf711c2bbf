import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { PLATFORM_SELLER_ID } from '../lib/payments/pro-plan-access';
import { receiveWebhook } from '../lib/payments/webhook-intake';
import { applyGatewayState } from './lib/subscriptions';

export const handler = createHandler(subscriptionRoutes.receiveBraintreeWebhook, async ({ body }) => {
  const db = getDb();
  return receiveWebhook(db, {
    sellerId: PLATFORM_SELLER_ID,
    gateway: await paymentGateway(),
    signature: body.bt_signature,
    payload: body.bt_payload,
    applySubscription: (subscription, now) => applyGatewayState(db, subscription, now),
  });
});
