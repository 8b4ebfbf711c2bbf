import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { receiveWebhook } from '../lib/payments/webhook-intake';
import { findShop, ShopNotFound } from './lib/merchants';
import { shopGateway } from './lib/shop-gateway';
import { applyStoreGatewayState } from './lib/store-subscriptions';

export const handler = createHandler(storeRoutes.receiveMerchantWebhook, async ({ params, body }) => {
  const db = getDb();
  const merchant = await findShop(db, params.merchantAccountId);
  // A shop with no gateway has nothing that could have signed this: as unknown as no shop at all.
  if (!merchant.gateway) throw new ShopNotFound();
  return receiveWebhook(db, {
    sellerId: merchant.merchantAccountId,
    // The shop's own keys: a delivery signed with anyone else's is a 401.
    gateway: await shopGateway(db, merchant),
    signature: body.bt_signature,
    payload: body.bt_payload,
    applySubscription: (subscription, now) => applyStoreGatewayState(db, subscription, now, { merchant }),
  });
});
