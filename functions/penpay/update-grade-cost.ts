import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, readMyProduct } from './lib/catalog';
import { changeGrade } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toGradeView } from './lib/views';

export const handler = createHandler(merchantRoutes.updateGradeCost, async ({ params, body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  // Carts price from the grade as it is now, so a changed price is shown to the buyer before paying.
  const grade = await changeGrade(db, merchant, params, new Date(), (current) =>
    current.priceMinor === body.amountMinor ? null : { priceMinor: body.amountMinor },
  );
  const product = await readMyProduct(db, merchant, grade.productStockId);
  return toGradeView(grade, isPurchasable(merchant, product, grade));
});
