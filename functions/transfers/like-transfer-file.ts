import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { resolvePackageCaller } from './lib/package-grants';
import { castVote } from './lib/votes';

export const handler = createHandler(transferRoutes.likeTransferFile, async ({ params, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  const voter = await resolvePackageCaller(db, { transferId: params.id, caller, cookies, now });
  return {
    file: await castVote(db, { transferId: params.id, fileId: params.relationId, caller: voter, vote: 'like', status: params.status, now, cookies }),
  };
});
