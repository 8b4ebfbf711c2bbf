import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { shopProductsPage } from './lib/shop-pages';

export const handler = createHandler(storeRoutes.listShopProducts, async ({ params, query }) =>
  shopProductsPage(getDb(), params.merchantAccountId, query.cursor),
);
