import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readMyMerchantId } from './lib/merchants';
import { readMerchantOrder, readRefunds, toMerchantOrderRefundsView } from './lib/refund-records';

export const handler = createHandler(storeRoutes.listStoreOrderRefunds, async ({ params, caller }) => {
  const db = getDb();
  const merchantAccountId = await readMyMerchantId(db, caller.userId);
  const [order, refunds] = await Promise.all([
    readMerchantOrder(db, merchantAccountId, params.invoiceId),
    readRefunds(db, params.invoiceId),
  ]);
  return toMerchantOrderRefundsView(order, refunds);
});
