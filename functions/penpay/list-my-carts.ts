import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listOpenCarts } from './lib/cart';

export const handler = createHandler(storeRoutes.listMyCarts, async ({ caller }) => ({
  items: await listOpenCarts(getDb(), caller.userId),
}));
