import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { cartInvoice } from './lib/cart';

export const handler = createHandler(storeRoutes.getCartInvoice, async ({ query, caller }) =>
  cartInvoice(getDb(), caller.userId, query.merchantAccountId, new Date(), query.discountCode),
);
