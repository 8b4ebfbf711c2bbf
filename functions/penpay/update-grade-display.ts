import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, readMyProduct } from './lib/catalog';
import { changeGrade, gradeDisplayChange } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toGradeView } from './lib/views';

export const handler = createHandler(merchantRoutes.updateGradeDisplay, async ({ params, body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const grade = await changeGrade(db, merchant, params, new Date(), gradeDisplayChange(body));
  const product = await readMyProduct(db, merchant, grade.productStockId);
  return toGradeView(grade, isPurchasable(merchant, product, grade));
});
