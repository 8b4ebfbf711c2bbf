import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toDiscountCodeView } from '../lib/payments/discount-codes';
import { createProDiscountCode } from './lib/pro-discounts';

// Superusers only (the route's access rule, checked before this runs).
export const handler = createHandler(subscriptionRoutes.createProDiscountCode, async ({ body }) =>
  toDiscountCodeView(await createProDiscountCode(getDb(), body, new Date())),
);
