import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readOwnInvoice } from '../lib/payments/invoices';
import { sendReceipts } from '../lib/payments/payment-mail';
import { PRO_DISCOUNT_ID } from '../lib/payments/gateway';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { paySubscriptionInvoice } from '../lib/payments/subscription-checkout';
import { gatewayCustomerOf } from '../lib/payments/customers';
import { PRO_REFUSALS, proOfferFor, proVoice } from './lib/pro-offer';
import { refuseWhenPro } from './lib/subscriptions';
import { toInvoiceView, toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.fulfillSubscriptionInvoice, async ({ params, body, caller }) => {
  const db = getDb();
  const now = new Date();
  const invoice = await readOwnInvoice(db, params.invoiceId, caller.userId);
  // A paid invoice answers its result again; only a payment of another invoice is refused to someone already on Pro.
  if (invoice.status !== 'paid') await refuseWhenPro(db, caller.userId, now, invoice.invoiceId);
  const [gateway, customer] = await Promise.all([paymentGateway(), gatewayCustomerOf(db, caller.userId)]);
  const paid = await paySubscriptionInvoice(db, gateway, {
    invoiceId: invoice.invoiceId,
    customer,
    nonce: body.paymentMethodNonce,
    deviceData: body.deviceData,
    offerFor: proOfferFor,
    refusals: PRO_REFUSALS,
    gatewayDiscountId: PRO_DISCOUNT_ID,
    now: () => new Date(),
  });
  await sendReceipts(db, proVoice(), paid.newPayments, new Date());
  return { invoice: toInvoiceView(paid.invoice), subscription: toSubscriptionView(paid.subscription, new Date()) };
});
