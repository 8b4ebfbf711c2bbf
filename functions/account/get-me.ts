import * as accountRoutes from '../../shared/routes/account';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { requireUserOfSession } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { signedInHintCookie } from '../lib/sessions';
import { toCurrentUser } from '../lib/accounts';

const config = getConfig();

export const handler = createHandler(accountRoutes.getMe, async ({ caller }) => {
  const user = toCurrentUser(await requireUserOfSession(getDb(), { userId: caller.userId }));
  // Sessions from before the hint existed get it here, on the first page that asks who they are.
  return reply(user, { cookies: [signedInHintCookie({ domain: config.sessionCookieDomain })] });
});
