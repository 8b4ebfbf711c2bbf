import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { UploadRejected } from './lib/finalize';
import { giveBackRequestBytes } from './lib/file-requests';
import { requireChangeableUpload, requireGrantedUpload, requireUploadFile } from './lib/upload-grants';
import { finalizeUploadOf } from './lib/upload-steps';

export const handler = createHandler(fileRequestRoutes.finalizeRequestUploadFile, async ({ params, cookies }) => {
  const db = getDb();
  const now = new Date();
  const upload = await requireGrantedUpload(db, { transferId: params.id, cookies, now });
  const file = await requireUploadFile(db, upload, params.fileId);
  if (file.status === 'ready') return finalizeUploadOf(db, upload.owner, file.fileId, now);
  const request = requireChangeableUpload(upload, now);
  try {
    return await finalizeUploadOf(db, upload.owner, file.fileId, now);
  } catch (error) {
    // A refused upload was removed with its record: its bytes go back to the request.
    if (error instanceof UploadRejected) await giveBackRequestBytes(db, request.requestId, file.size);
    throw error;
  }
});
