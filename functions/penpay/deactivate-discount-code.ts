import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { deactivateDiscountCode, toDiscountCodeView } from './lib/discounts';
import { readMyMerchantId } from './lib/merchants';

export const handler = createHandler(storeRoutes.deactivateDiscountCode, async ({ params, caller }) => {
  const db = getDb();
  // Only the caller's shop's partition is reached: another shop's code is not found.
  const merchantAccountId = await readMyMerchantId(db, caller.userId);
  return toDiscountCodeView(await deactivateDiscountCode(db, merchantAccountId, params.code));
});
