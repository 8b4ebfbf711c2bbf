import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { toCurrentUser } from './lib/accounts';

export const handler = createHandler(accountRoutes.getMe, async ({ caller }) => {
  const { data: user } = await getDb().entities.user.get({ userId: caller.userId }).go();
  // The session outlived its account (deleted meanwhile): treat as signed out.
  if (!user) throw new Unauthorized();
  return toCurrentUser(user);
});
