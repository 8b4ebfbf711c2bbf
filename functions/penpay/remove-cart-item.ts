import * as penpayRoutes from '../../shared/routes/penpay';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { removeFromCart } from './lib/cart';

export const handler = createHandler(penpayRoutes.removeCartItem, async ({ params, caller }) =>
  removeFromCart(getDb(), caller.userId, params.cartItemId),
);
