import * as accountRoutes from '../../shared/routes/account';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { clearedSessionCookies, deleteSession } from '../lib/sessions';

const config = getConfig();

export const handler = createHandler(accountRoutes.logout, async ({ sessionToken: token }) => {
  if (token) await deleteSession(getDb(), token);
  return reply({ loggedOut: true }, { cookies: clearedSessionCookies({ domain: config.sessionCookieDomain }) });
});
