import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { changeGrade } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';

export const handler = createHandler(merchantRoutes.setGradeVisibility, async ({ params, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  await changeGrade(db, merchant, { productStockGradeId: params.productStockGradeId }, new Date(), (grade) =>
    grade.visibility === params.visibility ? null : { visibility: params.visibility },
  );
  return true;
});
