import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { FileRequestGone, FileRequestNotFound, readFileRequest, toPublicFileRequest, whyUnavailable } from './lib/file-requests';
import { toPerson } from './lib/transfer-views';

export const handler = createHandler(fileRequestRoutes.showFileRequest, async ({ params }) => {
  const db = getDb();
  const now = new Date();
  const request = await readFileRequest(db, params.id);
  if (!request) throw new FileRequestNotFound();
  if (whyUnavailable(request, now)) throw new FileRequestGone(request, now);
  const requester = await getUser(db, { userId: request.ownerId });
  return toPublicFileRequest(request, toPerson(requester ?? undefined, request.ownerId));
});
