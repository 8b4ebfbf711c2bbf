import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { connectGateway } from './lib/gateway-connection';
import { readMyMerchant } from './lib/merchants';
import { toMerchantAccountView } from './lib/views';

export const handler = createHandler(merchantRoutes.connectMerchantGateway, async ({ body, caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  // The answer is the account as any read shows it: which Braintree account, never its keys.
  return toMerchantAccountView(await connectGateway(db, merchant, body, new Date()));
});
