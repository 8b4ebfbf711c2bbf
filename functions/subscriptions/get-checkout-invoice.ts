import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { openInvoiceFor } from '../lib/payments/invoices';
import { PLATFORM_SELLER_ID } from '../lib/payments/pro-plan-access';
import { proInvoiceLines } from './lib/pro-offer';
import { refuseWhenPro } from './lib/subscriptions';
import { toInvoiceView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.getCheckoutInvoice, async ({ query, caller }) => {
  const db = getDb();
  const now = new Date();
  await refuseWhenPro(db, caller.userId, now);
  const invoice = await openInvoiceFor(db, {
    customerId: caller.userId,
    sellerId: PLATFORM_SELLER_ID,
    priceId: query.priceId,
    purpose: 'subscription',
    price: () => proInvoiceLines(query.priceId),
    now,
  });
  return { invoice: toInvoiceView(invoice) };
});
