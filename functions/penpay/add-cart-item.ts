import * as penpayRoutes from '../../shared/routes/penpay';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { addToCart } from './lib/cart';

export const handler = createHandler(penpayRoutes.addCartItem, async ({ body, caller }) =>
  addToCart(getDb(), caller.userId, body, new Date()),
);
