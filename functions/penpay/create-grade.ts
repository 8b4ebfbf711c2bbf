import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, readMyProduct } from './lib/catalog';
import { checkedGradePlan } from './lib/grade-plans';
import { createGrade } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toGradeView } from './lib/views';

export const handler = createHandler(merchantRoutes.createGrade, async ({ params, body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const product = await readMyProduct(db, merchant, params.productStockId);
  // Checked at the merchant's gateway before anything is written; a grade sold once needs no gateway yet.
  const plan = body.subscription ? await checkedGradePlan(db, merchant, body.subscription) : null;
  const grade = await createGrade(db, merchant, product, body, plan, new Date());
  return toGradeView(grade, isPurchasable(merchant, product, grade));
});
