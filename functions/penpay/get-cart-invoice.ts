import * as penpayRoutes from '../../shared/routes/penpay';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { cartInvoice } from './lib/cart';

export const handler = createHandler(penpayRoutes.getCartInvoice, async ({ query, caller }) =>
  cartInvoice(getDb(), caller.userId, query.merchantAccountId, new Date()),
);
