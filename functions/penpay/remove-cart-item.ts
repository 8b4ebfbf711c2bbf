import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { removeFromCart } from './lib/cart';

export const handler = createHandler(storeRoutes.removeCartItem, async ({ params, caller }) =>
  removeFromCart(getDb(), caller.userId, params.cartItemId),
);
