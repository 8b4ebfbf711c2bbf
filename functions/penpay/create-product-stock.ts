import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { createProduct } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toProductView } from './lib/views';

export const handler = createHandler(merchantRoutes.createProductStock, async ({ body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  // Allowed before a Braintree account is connected: a merchant prepares the shop first.
  const product = await createProduct(db, merchant, body, new Date());
  return toProductView(product, merchant.gateway !== undefined);
});
