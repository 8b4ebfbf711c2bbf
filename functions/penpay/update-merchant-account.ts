import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { updateMerchant } from './lib/merchant-writes';
import { readMyMerchant } from './lib/merchants';
import { toMerchantAccountView } from './lib/views';

export const handler = createHandler(merchantRoutes.updateMerchantAccount, async ({ body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  return toMerchantAccountView(await updateMerchant(db, merchant, body, new Date()));
});
