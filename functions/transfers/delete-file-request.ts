import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnRequest, toFileRequestView } from './lib/file-requests';

/** The uploads stay: they are the requester's transfers, deleted as any transfer is. */
export const handler = createHandler(fileRequestRoutes.deleteFileRequest, async ({ params, caller }) => {
  const db = getDb();
  const request = await requireOwnRequest(db, params.id, caller);
  await db.entities.fileRequest.delete({ requestId: request.requestId }).go();
  return toFileRequestView(request, new Date());
});
