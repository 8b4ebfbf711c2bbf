import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, readMyGrade, readMyProduct } from './lib/catalog';
import { movedGradePlan } from './lib/grade-plans';
import { changeGrade } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toGradeView } from './lib/views';

const soldOnce = () =>
  new Conflict(
    'This grade is sold once, not by subscription: make it a subscription first (its subscription settings), with a plan.',
  );

export const handler = createHandler(merchantRoutes.updateGradePlan, async ({ params, body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const current = await readMyGrade(db, merchant, params.productStockId, params.productStockGradeId);
  if (!current.plan) throw soldOnce();
  const plan = await movedGradePlan(db, merchant, current.plan, body.braintreePlanId);
  // New subscriptions use the new plan; existing ones keep theirs at the gateway.
  const grade = await changeGrade(db, merchant, params, new Date(), (latest) => {
    if (!latest.plan) throw soldOnce();
    return latest.plan.braintreePlanId === plan.braintreePlanId ? null : { plan };
  });
  const product = await readMyProduct(db, merchant, grade.productStockId);
  return toGradeView(grade, isPurchasable(merchant, product, grade));
});
