import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';

/**
 * Unblocks a user. Idempotent: unblocking someone not blocked answers the same. A block of an
 * account deleted since can still be removed; an id that is neither blocked nor a user is a 404.
 */
export const handler = createHandler(accountRoutes.unblockUser, async ({ caller, params }) => {
  const db = getDb();
  const { data: removed } = await db.entities.block
    .delete({ userId: caller.userId, blockedUserId: params.userId })
    .go({ response: 'all_old' });
  if (!removed) {
    if (!(await getUser(db, { userId: params.userId }))) throw new NotFound('No such user');
  }
  return { userId: params.userId, blocked: false as const };
});
