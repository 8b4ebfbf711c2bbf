import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, readMyGrade, readMyProduct } from './lib/catalog';
import { checkedGradePlan } from './lib/grade-plans';
import { changeGrade } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toGradeView } from './lib/views';

export const handler = createHandler(merchantRoutes.updateGradeSubscription, async ({ params, body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  // Another merchant's grade is a 404 before anything is asked of the gateway.
  await readMyGrade(db, merchant, params.productStockId, params.productStockGradeId);
  const plan = body.subscription ? await checkedGradePlan(db, merchant, body.subscription) : null;
  // Existing subscribers keep what they bought: their subscriptions carry their own plan and price.
  const grade = await changeGrade(db, merchant, params, new Date(), (current) =>
    plan ? { plan } : current.plan ? { plan: null } : null,
  );
  const product = await readMyProduct(db, merchant, grade.productStockId);
  return toGradeView(grade, isPurchasable(merchant, product, grade));
});
