import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { removeGradeFile } from './lib/digital-files';

export const handler = createHandler(storeRoutes.removeGradeFile, async ({ params, caller }) =>
  removeGradeFile(getDb(), caller, params.productStockGradeId, params.fileId),
);
