import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { giveBackRequestBytes, takeRequestBytes } from './lib/file-requests';
import { createTransferFiles } from './lib/stored-files';
import { requireChangeableUpload, requireGrantedUpload } from './lib/upload-grants';

/**
 * The bytes are taken from the request first (what it has left across its uploads), then the
 * files are created as a sender's are, within the requester's plan; refused files give the
 * bytes back.
 */
export const handler = createHandler(fileRequestRoutes.createRequestUploadFiles, async ({ params, body, cookies }) => {
  const db = getDb();
  const now = new Date();
  const upload = await requireGrantedUpload(db, { transferId: params.id, cookies, now });
  const request = requireChangeableUpload(upload, now);
  const bytes = body.files.reduce((sum, file) => sum + file.size, 0);
  await takeRequestBytes(db, request, bytes, now);
  try {
    const files = await createTransferFiles(db, upload.owner, upload.transfer.transferId, body.files, now);
    return reply({ files }, { status: 201 });
  } catch (error) {
    await giveBackRequestBytes(db, request.requestId, bytes);
    throw error;
  }
});
