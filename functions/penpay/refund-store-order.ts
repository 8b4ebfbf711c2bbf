import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readMyMerchant } from './lib/merchants';
import { readMerchantOrder, readRefunds, toMerchantOrderRefundsView, toRefundView } from './lib/refund-records';
import { refundOrder } from './lib/store-refunds';

export const handler = createHandler(storeRoutes.refundStoreOrder, async ({ params, body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  const refund = await refundOrder(db, {
    merchant,
    invoiceId: params.invoiceId,
    body,
    requestedBy: caller.userId,
    now: () => new Date(),
  });
  const [order, refunds] = await Promise.all([
    readMerchantOrder(db, merchant.merchantAccountId, params.invoiceId),
    readRefunds(db, params.invoiceId),
  ]);
  return { refund: toRefundView(refund, order), order: toMerchantOrderRefundsView(order, refunds) };
});
