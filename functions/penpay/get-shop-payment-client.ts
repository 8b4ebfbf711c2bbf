import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { paymentClientFor } from '../lib/payments/payment-client';
import { findOpenShop } from './lib/merchants';
import { shopGateway } from './lib/shop-gateway';

export const handler = createHandler(storeRoutes.getShopPaymentClient, async ({ params, caller }) => {
  const db = getDb();
  const shop = await findOpenShop(db, params.merchantAccountId);
  // Said to the customer, not in the merchant's words ("connect your account").
  if (!shop.gateway) throw new Conflict(`${shop.shopName} does not take payments yet: nothing can be bought there.`);
  // The shop's own account: the card form's token, and the customer it is made for, are the shop's.
  return paymentClientFor(db, await shopGateway(db, shop), caller.userId);
});
