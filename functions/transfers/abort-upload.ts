import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { toFileView } from './lib/transfer-views';
import { removeFile } from '../lib/files/stored-files';
import { requireChangeableFile } from './lib/stored-files';

export const handler = createHandler(transferRoutes.abortUpload, async ({ params, caller }) => {
  const db = getDb();
  const { file } = await requireChangeableFile(db, params.id, caller, new Date());
  if (file.status !== 'pending') throw new Conflict('This file is already uploaded: delete it instead.');
  await removeFile(db, file);
  return { file: toFileView(file) };
});
