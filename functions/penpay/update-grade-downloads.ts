import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { setDownloadsPerPurchase } from './lib/digital-files';

export const handler = createHandler(storeRoutes.updateGradeDownloads, async ({ params, body, caller }) =>
  setDownloadsPerPurchase(getDb(), caller, params.productStockGradeId, body.downloadsPerPurchase, new Date()),
);
