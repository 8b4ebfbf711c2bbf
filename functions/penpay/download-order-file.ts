import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { downloadOrderFile } from './lib/digital-downloads';

export const handler = createHandler(storeRoutes.downloadOrderFile, async ({ params, caller }) =>
  downloadOrderFile(getDb(), caller.userId, params.invoiceId, params.fileId, new Date()),
);
