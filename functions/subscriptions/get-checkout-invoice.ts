import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { openProInvoice } from './lib/pro-offer';
import { refuseWhenPro } from './lib/subscriptions';
import { toInvoiceView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.getCheckoutInvoice, async ({ query, caller }) => {
  const db = getDb();
  const now = new Date();
  await refuseWhenPro(db, caller.userId, now);
  const invoice = await openProInvoice(db, caller.userId, query.priceId, now, query.discountCode);
  return { invoice: toInvoiceView(invoice) };
});
