import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { gradeFilesView, requireMyGradeById } from './lib/digital-files';

export const handler = createHandler(storeRoutes.listGradeFiles, async ({ params, caller }) => {
  const db = getDb();
  const { grade } = await requireMyGradeById(db, caller, params.productStockGradeId);
  return gradeFilesView(db, grade);
});
