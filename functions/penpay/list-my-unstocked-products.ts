import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { myProductsPage } from './lib/merchant-feeds';
import { readMyMerchant } from './lib/merchants';

export const handler = createHandler(merchantRoutes.listMyUnstockedProducts, async ({ query, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  return myProductsPage(db, merchant, 'unstocked', query.cursor);
});
