import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toFileView } from './lib/transfer-views';
import { removeFile } from '../lib/files/stored-files';
import { requireChangeableFile } from './lib/stored-files';

export const handler = createHandler(transferRoutes.deleteFile, async ({ params, caller }) => {
  const db = getDb();
  const { file } = await requireChangeableFile(db, params.id, caller, new Date());
  await removeFile(db, file);
  return { file: toFileView(file) };
});
