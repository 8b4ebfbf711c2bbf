import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toRequestUploadView } from './lib/file-requests';
import { notifyRequester } from './lib/request-upload-mail';
import { requireAllReady, sealTransfer } from './lib/seal-transfer';
import { TransferAlreadySent } from './lib/transfer-access';
import { listTransferFiles } from './lib/transfer-reads';
import { requireChangeableUpload, requireGrantedUpload } from './lib/upload-grants';

/**
 * Finishes an upload as a sender's transfer is sent, without recipients: the transfer is the
 * requester's, sent to nobody but them, and it opens as a package for them. Then the requester
 * hears of it, in the bell and by mail. A second finish (a double click) answers the upload
 * again and tells no one twice.
 */
export const handler = createHandler(fileRequestRoutes.finishRequestUpload, async ({ params, cookies }) => {
  const db = getDb();
  const now = new Date();
  const upload = await requireGrantedUpload(db, { transferId: params.id, cookies, now });
  const answer = async () => {
    const current = await requireGrantedUpload(db, { transferId: params.id, cookies, now });
    const files = await listTransferFiles(db, current.transfer.transferId);
    return toRequestUploadView(current.transfer, current.request?.title ?? current.transfer.title, files, current.grantExpiresAt);
  };
  if (upload.transfer.status === 'sent') return answer();
  const request = requireChangeableUpload(upload, now);
  const files = await listTransferFiles(db, upload.transfer.transferId);
  requireAllReady(files);
  let sent;
  try {
    sent = await sealTransfer(db, upload.transfer, files, now);
  } catch (error) {
    if (error instanceof TransferAlreadySent) return answer();
    throw error;
  }
  await db.entities.fileRequest.patch({ requestId: request.requestId }).add({ finishedCount: 1 }).go();
  await notifyRequester(db, request, sent, files, now);
  return toRequestUploadView(sent, request.title, files, upload.grantExpiresAt);
});
