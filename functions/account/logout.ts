import { accountRoutes } from '../../shared/routes/account';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readSessionToken } from '../lib/http/caller';
import { HttpResponse } from '../lib/http/responses';
import { clearedSessionCookies, deleteSession } from '../lib/sessions';

const config = getConfig();

export const handler = createHandler(accountRoutes.logout, async ({ event, headers }) => {
  const token = readSessionToken(event, headers);
  if (token) await deleteSession(getDb(), token);
  return new HttpResponse(200, { loggedOut: true }, {}, clearedSessionCookies({ domain: config.sessionCookieDomain }));
});
