import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, readMyGrade, readMyProduct } from './lib/catalog';
import { readMyMerchant } from './lib/merchants';
import { toGradeView } from './lib/views';

export const handler = createHandler(merchantRoutes.getMyGrade, async ({ params, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const [product, grade] = await Promise.all([
    readMyProduct(db, merchant, params.productStockId),
    readMyGrade(db, merchant, params.productStockId, params.productStockGradeId),
  ]);
  return toGradeView(grade, isPurchasable(merchant, product, grade));
});
