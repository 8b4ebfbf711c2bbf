import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { paymentClientFor } from '../lib/payments/payment-client';

export const handler = createHandler(subscriptionRoutes.getPaymentClientToken, async ({ caller }) =>
  paymentClientFor(getDb(), await paymentGateway(), caller.userId),
);
