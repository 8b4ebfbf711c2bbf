import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { setCartItemQuantity } from './lib/cart';

export const handler = createHandler(storeRoutes.updateCartItemQuantity, async ({ params, body, caller }) =>
  setCartItemQuantity(getDb(), caller.userId, params.cartItemId, body.quantity),
);
