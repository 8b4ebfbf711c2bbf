import * as merchantRoutes from '../../shared/routes/merchant';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { merchantPlans, toGatewayPlansView } from './lib/grade-plans';
import { readMyMerchant } from './lib/merchants';

export const handler = createHandler(merchantRoutes.listMyGatewayPlans, async ({ caller }) => {
  const db = getDb();
  const merchant = await readMyMerchant(db, caller.userId);
  return toGatewayPlansView(await merchantPlans(db, merchant));
});
