import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { changeProduct, productDisplayChange } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toProductView } from './lib/views';

export const handler = createHandler(merchantRoutes.updateProductDisplay, async ({ params, body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const product = await changeProduct(db, merchant, params.productStockId, new Date(), productDisplayChange(db, merchant, body));
  return toProductView(product, merchant.gateway !== undefined);
});
