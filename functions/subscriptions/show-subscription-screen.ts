import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { PLAN_LIMITS } from '../../shared/transfers/plans';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { givesPro, readProSubscription } from '../lib/payments/pro-plan-access';
import { readRefundsOfPerson, toChargeRefundViews } from './lib/pro-refunds';
import { subscriptionSeo } from './lib/screens';
import { listRecentPayments } from './lib/subscriptions';
import { proProductStock, toPaymentRecordView, toSubscriptionView } from './lib/views';

export const handler = createHandler(subscriptionRoutes.showSubscriptionScreen, async ({ caller }) => {
  const db = getDb();
  const now = new Date();
  const [subscription, payments, refunds] = await Promise.all([
    readProSubscription(db, caller.userId),
    listRecentPayments(db, caller.userId),
    readRefundsOfPerson(db, caller.userId),
  ]);
  return {
    seo: subscriptionSeo,
    currentPlan: givesPro(subscription, now) ? PLAN_LIMITS.pro : PLAN_LIMITS.free,
    subscription: subscription ? toSubscriptionView(subscription, now) : null,
    payments: payments.map((payment) =>
      toPaymentRecordView(payment, toChargeRefundViews(refunds.get(payment.transactionId) ?? [])),
    ),
    stock: proProductStock(),
  };
});
