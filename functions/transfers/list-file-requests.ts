import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { checkedCursor } from '../lib/db/cursors';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toFileRequestView } from './lib/file-requests';

/** A page of the caller's requests. */
export const FILE_REQUEST_PAGE_SIZE = 50;

export const handler = createHandler(fileRequestRoutes.listFileRequests, async ({ query, caller }) => {
  const now = new Date();
  const db = getDb();
  const byOwner = () => db.entities.fileRequest.query.byOwner({ ownerId: caller.userId });
  // A cursor naming another owner's partition is refused, not followed.
  const cursor = checkedCursor(query.cursor, byOwner(), 'gsi1pk');
  const page = await byOwner().go({ order: 'desc', limit: FILE_REQUEST_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  return { requests: page.data.map((request) => toFileRequestView(request, now)), cursor: page.cursor ?? null };
});
