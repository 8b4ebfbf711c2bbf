import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requirePackageAccess } from './lib/transfer-access';
import { readVotes } from './lib/transfer-reads';

export const handler = createHandler(transferRoutes.listMyVotes, async ({ params, caller }) => {
  const db = getDb();
  await requirePackageAccess(db, params.id, caller, new Date());
  return { votes: Object.fromEntries(await readVotes(db, params.id, caller.userId)) };
});
