import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listReceivedTransfers } from './lib/transfer-lists';

export const handler = createHandler(transferRoutes.listReceivedTransfers, async ({ query, caller }) => {
  // Transfers are sent to addresses: without a verified one, nothing can have been received.
  const email = caller.verifiedEmail;
  if (!email) return { transfers: [], cursor: null };
  return listReceivedTransfers(getDb(), { email, cursor: query.cursor, now: new Date() });
});
