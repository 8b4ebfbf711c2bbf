import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { PRO_PRICES } from '../../shared/transfers/pro-plan';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { givesPro, readProSubscription } from '../lib/payments/pro-plan-access';
import { paymentClientFor } from '../lib/payments/payment-client';
import { openProInvoice } from './lib/pro-offer';
import { checkoutSeo } from './lib/screens';
import { proProductStock, toInvoiceView, toPriceView, toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.showCheckoutScreen, async ({ query, caller }) => {
  const db = getDb();
  const now = new Date();
  const [subscription, invoice] = await Promise.all([
    readProSubscription(db, caller.userId),
    openProInvoice(db, caller.userId, query.priceId, now, query.discountCode),
  ]);
  const onPro = givesPro(subscription, now);
  // A client token only for someone who can pay: it is a call to the gateway.
  const payment = onPro ? null : await paymentClientFor(db, await paymentGateway(), caller.userId);
  return {
    seo: checkoutSeo,
    stock: proProductStock(),
    price: toPriceView(PRO_PRICES[query.priceId]),
    invoice: toInvoiceView(invoice),
    payment,
    subscription: subscription ? toSubscriptionView(subscription, now) : null,
  };
});
