import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readMyProduct } from './lib/catalog';
import { myGradesPage } from './lib/merchant-feeds';
import { readMyMerchant } from './lib/merchants';

export const handler = createHandler(merchantRoutes.listMyStockedGrades, async ({ params, query, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const product = await readMyProduct(db, merchant, params.productStockId);
  return myGradesPage(db, merchant, product, 'stocked', query.cursor);
});
