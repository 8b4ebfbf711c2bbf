import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toFileRequestView } from './lib/file-requests';

export const handler = createHandler(fileRequestRoutes.listFileRequests, async ({ caller }) => {
  const now = new Date();
  const { data } = await getDb()
    .entities.fileRequest.query.byOwner({ ownerId: caller.userId })
    .go({ order: 'desc', pages: 'all' });
  return { requests: data.map((request) => toFileRequestView(request, now)) };
});
