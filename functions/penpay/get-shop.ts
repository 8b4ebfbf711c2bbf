import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { findOpenShop } from './lib/merchants';
import { toShopView } from './lib/views';

export const handler = createHandler(storeRoutes.getShop, async ({ params }) =>
  toShopView(await findOpenShop(getDb(), params.merchantAccountId)),
);
