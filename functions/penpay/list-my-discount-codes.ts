import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listDiscountCodes, toDiscountCodeView } from './lib/discounts';
import { readMyMerchantId } from './lib/merchants';

export const handler = createHandler(storeRoutes.listMyDiscountCodes, async ({ caller }) => {
  const db = getDb();
  const merchantAccountId = await readMyMerchantId(db, caller.userId);
  return { items: (await listDiscountCodes(db, merchantAccountId)).map(toDiscountCodeView) };
});
