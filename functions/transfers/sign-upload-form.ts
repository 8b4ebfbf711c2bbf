import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { requireChangeableFile, uploadTargetOf } from './lib/stored-files';
import { toFileView } from './lib/transfer-views';

export const handler = createHandler(transferRoutes.signUploadForm, async ({ params, caller }) => {
  const now = new Date();
  const { file, transfer } = await requireChangeableFile(getDb(), params.id, caller, now);
  if (file.status !== 'pending' || file.uploadMethod !== 'post') {
    throw new Conflict('This file is not waiting for a single upload: it is uploaded in parts, or already uploaded.');
  }
  return { file: toFileView(file), upload: await uploadTargetOf(file, now, transfer) };
});
