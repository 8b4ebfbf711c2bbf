import * as accountRoutes from '../../shared/routes/account';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { BadRequest, NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';

/** Blocks a user. Idempotent: blocking again keeps the first block (and its time) and answers the same. */
export const handler = createHandler(accountRoutes.blockUser, async ({ caller, params }) => {
  // The id is normalised by the route's schema: one comparison covers every letter case.
  if (params.userId === caller.userId) throw new BadRequest('You cannot block yourself');
  const db = getDb();
  const target = await getUser(db, { userId: params.userId });
  if (!target) throw new NotFound('No such user');
  try {
    await db.entities.block
      .create({ userId: caller.userId, blockedUserId: target.userId, createdAt: new Date().toISOString() })
      .go();
  } catch (error) {
    // Already blocked: the existing block stands.
    if (!isConditionalCheckFailed(error)) throw error;
  }
  return { userId: params.userId, blocked: true as const };
});
