import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { giveBackRequestBytes } from './lib/file-requests';
import { removeFile } from '../lib/files/stored-files';
import { requireChangeableFile } from './lib/stored-files';
import { toFileView } from './lib/transfer-views';
import { requireChangeableUpload, requireGrantedUpload, requireUploadFile } from './lib/upload-grants';

/** A pending file's parts are dropped, a ready one's bytes deleted; either way its bytes go back to the request. */
export const handler = createHandler(fileRequestRoutes.abortRequestUploadFile, async ({ params, cookies }) => {
  const db = getDb();
  const now = new Date();
  const upload = await requireGrantedUpload(db, { transferId: params.id, cookies, now });
  const request = requireChangeableUpload(upload, now);
  await requireUploadFile(db, upload, params.fileId);
  const { file } = await requireChangeableFile(db, params.fileId, upload.owner, now);
  await removeFile(db, file);
  await giveBackRequestBytes(db, request.requestId, file.size);
  return { file: toFileView(file) };
});
