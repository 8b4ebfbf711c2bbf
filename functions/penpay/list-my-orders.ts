import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { myOrdersPage } from './lib/store-orders';

export const handler = createHandler(storeRoutes.listMyOrders, async ({ query, caller }) =>
  myOrdersPage(getDb(), caller.userId, query.cursor),
);
