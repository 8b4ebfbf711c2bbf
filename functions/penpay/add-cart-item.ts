import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { addToCart } from './lib/cart';

export const handler = createHandler(storeRoutes.addCartItem, async ({ body, caller }) =>
  addToCart(getDb(), caller.userId, body, new Date()),
);
