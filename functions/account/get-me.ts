import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { requireUserOfSession } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { toCurrentUser } from './lib/accounts';

export const handler = createHandler(accountRoutes.getMe, async ({ caller }) => {
  return toCurrentUser(await requireUserOfSession(getDb(), { userId: caller.userId }));
});
