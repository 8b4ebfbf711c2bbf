import { ssoRoutes } from '../../shared/routes/sso';
import { toCurrentUser } from './lib/accounts';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';

/** Whether the caller's session (cookie or ssoat header) is alive, and its user; never a 401. */
export const handler = createHandler(ssoRoutes.ssoAuthedCheck, async ({ caller }) => {
  if (caller.kind !== 'user') return { isAuthed: false, user: null };
  const { data: user } = await getDb().entities.user.get({ userId: caller.userId }).go();
  // The session outlived its account (deleted meanwhile): signed out.
  if (!user) return { isAuthed: false, user: null };
  return { isAuthed: true, user: toCurrentUser(user) };
});
