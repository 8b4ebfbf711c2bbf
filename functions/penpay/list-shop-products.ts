import * as penpayRoutes from '../../shared/routes/penpay';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { shopProductsPage } from './lib/shop-pages';

export const handler = createHandler(penpayRoutes.listShopProducts, async ({ params, query }) =>
  shopProductsPage(getDb(), params.merchantAccountId, query.cursor),
);
