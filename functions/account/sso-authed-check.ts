import * as ssoRoutes from '../../shared/routes/sso';
import { toCurrentUser } from '../lib/accounts';
import { getDb } from '../lib/db/service';
import { getUserOfSession } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';

/** Whether the caller's session (cookie or ssoat header) is alive, and its user; never a 401. */
export const handler = createHandler(ssoRoutes.ssoAuthedCheck, async ({ caller }) => {
  if (caller.kind !== 'user') return { isAuthed: false, user: null };
  const user = await getUserOfSession(getDb(), { userId: caller.userId });
  if (!user) return { isAuthed: false, user: null };
  return { isAuthed: true, user: toCurrentUser(user) };
});
