import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { createDiscountCode, toDiscountCodeView } from './lib/discounts';
import { readMyMerchant } from './lib/merchants';

export const handler = createHandler(storeRoutes.createDiscountCode, async ({ body, caller }) => {
  const db = getDb();
  // The shop is the caller's own, from the session: a code is never made for another shop.
  const merchant = await readMyMerchant(db, caller.userId);
  return toDiscountCodeView(await createDiscountCode(db, merchant, body, new Date()));
});
