import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnRequest, toFileRequestView } from './lib/file-requests';

export const handler = createHandler(fileRequestRoutes.closeFileRequest, async ({ params, caller }) => {
  const db = getDb();
  const now = new Date();
  const request = await requireOwnRequest(db, params.id, caller);
  if (request.status === 'closed') return toFileRequestView(request, now);
  const closedAt = now.toISOString();
  await db.entities.fileRequest.patch({ requestId: request.requestId }).set({ status: 'closed', closedAt }).go();
  return toFileRequestView({ ...request, status: 'closed', closedAt }, now);
});
