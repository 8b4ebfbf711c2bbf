import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readMyProduct } from './lib/catalog';
import { readMyMerchant } from './lib/merchants';
import { toProductView } from './lib/views';

export const handler = createHandler(merchantRoutes.getMyProductStock, async ({ params, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const product = await readMyProduct(db, merchant, params.productStockId);
  return toProductView(product, merchant.gateway !== undefined);
});
