import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toRequestUploadView } from './lib/file-requests';
import { listTransferFiles } from './lib/transfer-reads';
import { requireGrantedUpload } from './lib/upload-grants';

/** The uploader's own files only: the upload is one transfer, and the grant opens that one. */
export const handler = createHandler(fileRequestRoutes.getRequestUpload, async ({ params, cookies }) => {
  const db = getDb();
  const upload = await requireGrantedUpload(db, { transferId: params.id, cookies, now: new Date() });
  const files = await listTransferFiles(db, upload.transfer.transferId);
  return toRequestUploadView(upload.transfer, upload.request?.title ?? upload.transfer.title, files, upload.grantExpiresAt);
});
