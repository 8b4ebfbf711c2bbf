import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toDiscountCodeView } from '../lib/payments/discount-codes';
import { deactivateProDiscountCode } from './lib/pro-discounts';

export const handler = createHandler(subscriptionRoutes.deactivateProDiscountCode, async ({ params }) =>
  toDiscountCodeView(await deactivateProDiscountCode(getDb(), params.code)),
);
