import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { verifiedEmailOf } from './lib/transfer-access';
import { listReceivedTransfers } from './lib/transfer-lists';

export const handler = createHandler(transferRoutes.listReceivedTransfers, async ({ query, caller }) => {
  const db = getDb();
  const email = await verifiedEmailOf(db, caller.userId);
  // Transfers are sent to addresses: without a verified one, nothing can have been received.
  if (!email) return { transfers: [], cursor: null };
  return listReceivedTransfers(db, { email, cursor: query.cursor, now: new Date() });
});
