import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readMyMerchant } from './lib/merchants';
import { toMerchantAccountView } from './lib/views';

export const handler = createHandler(merchantRoutes.getMyMerchantAccount, async ({ caller }) =>
  toMerchantAccountView(await readMyMerchant(getDb(), caller.userId)),
);
