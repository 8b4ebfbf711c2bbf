import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { readChargeRefunds, readProCharge, refundProCharge, toProChargeView, toProRefundView } from './lib/pro-refunds';

export const handler = createHandler(subscriptionRoutes.refundProCharge, async ({ params, body, caller }) => {
  const db = getDb();
  const refund = await refundProCharge(db, {
    transactionId: params.transactionId,
    body,
    requestedBy: caller.userId,
    gateway: paymentGateway,
    now: () => new Date(),
  });
  const [payment, refunds] = await Promise.all([
    readProCharge(db, params.transactionId),
    readChargeRefunds(db, params.transactionId),
  ]);
  return { refund: toProRefundView(refund), charge: toProChargeView(payment, refunds) };
});
