import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { Conflict } from '../lib/errors';
import { listParts } from '../lib/files/file-bucket';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnFile } from './lib/stored-files';

export const handler = createHandler(transferRoutes.listUploadedParts, async ({ params, caller }) => {
  const file = await requireOwnFile(getDb(), params.id, caller);
  if (file.status !== 'pending' || file.uploadMethod !== 'multipart' || !file.uploadId) {
    throw new Conflict('This file is not being uploaded in parts.');
  }
  const parts = await listParts({ key: file.objectKey, uploadId: file.uploadId });
  if (!parts) throw new Conflict('This upload was abandoned too long ago: remove the file and add it again.');
  return { parts };
});
