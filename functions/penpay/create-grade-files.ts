import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { createGradeFiles } from './lib/digital-files';

export const handler = createHandler(storeRoutes.createGradeFiles, async ({ params, body, caller }) =>
  reply({ files: await createGradeFiles(getDb(), caller, params.productStockGradeId, body.files, new Date()) }, { status: 201 }),
);
