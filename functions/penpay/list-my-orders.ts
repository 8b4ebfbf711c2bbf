import * as penpayRoutes from '../../shared/routes/penpay';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { myOrdersPage } from './lib/store-orders';

export const handler = createHandler(penpayRoutes.listMyOrders, async ({ query, caller }) =>
  myOrdersPage(getDb(), caller.userId, query.cursor),
);
