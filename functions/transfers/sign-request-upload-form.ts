import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requireChangeableUpload, requireGrantedUpload, requireUploadFile } from './lib/upload-grants';
import { signFormOf } from './lib/upload-steps';

export const handler = createHandler(fileRequestRoutes.signRequestUploadForm, async ({ params, cookies }) => {
  const db = getDb();
  const now = new Date();
  const upload = await requireGrantedUpload(db, { transferId: params.id, cookies, now });
  requireChangeableUpload(upload, now);
  const file = await requireUploadFile(db, upload, params.fileId);
  return signFormOf(db, upload.owner, file.fileId, now);
});
