import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { registerMerchant } from './lib/merchant-writes';
import { toMerchantAccountView } from './lib/views';

export const handler = createHandler(merchantRoutes.registerMerchant, async ({ body, caller }) =>
  toMerchantAccountView(await registerMerchant(getDb(), caller.userId, body, new Date())),
);
