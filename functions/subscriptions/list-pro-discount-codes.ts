import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toDiscountCodeView } from '../lib/payments/discount-codes';
import { listProDiscountCodes } from './lib/pro-discounts';

export const handler = createHandler(subscriptionRoutes.listProDiscountCodes, async () => ({
  items: (await listProDiscountCodes(getDb())).map(toDiscountCodeView),
}));
