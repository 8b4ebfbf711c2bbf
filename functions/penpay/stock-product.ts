import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { changeProduct } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';

export const handler = createHandler(merchantRoutes.stockProduct, async ({ params, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  await changeProduct(db, merchant, params.productStockId, new Date(), (product) =>
    product.stocked === true ? null : { stocked: true },
  );
  return true;
});
