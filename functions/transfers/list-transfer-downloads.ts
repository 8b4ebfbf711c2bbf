import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readDownloadLog } from './lib/download-log-page';
import { requireOwnTransfer } from './lib/transfer-access';

/** The sender's download log: the transfer is read first, so nobody else learns it exists (404). */
export const handler = createHandler(transferRoutes.listTransferDownloads, async ({ params, query, caller }) => {
  const db = getDb();
  const transfer = await requireOwnTransfer(db, params.id, caller);
  return readDownloadLog(db, transfer.transferId, query.cursor);
});
