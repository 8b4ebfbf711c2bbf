import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listOwnTransfers } from './lib/transfer-lists';

export const handler = createHandler(transferRoutes.listOwnTransfers, async ({ query, caller }) =>
  listOwnTransfers(getDb(), { ownerId: caller.userId, cursor: query.cursor, now: new Date() }),
);
