import * as accountRoutes from '../../shared/routes/account';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { clearedSessionCookies, endSession } from '../lib/sessions';

const config = getConfig();

/**
 * Ends one of the caller's own sessions. Someone else's session id answers 404 like an unknown
 * one (not 403), so session ids cannot be probed. Ending the current session also clears the cookie.
 */
export const handler = createHandler(accountRoutes.endSession, async ({ caller, params }) => {
  const ended = await endSession(getDb(), caller.userId, params.sessionId);
  if (!ended) throw new NotFound('No such session');
  const cookies = params.sessionId === caller.sessionId ? clearedSessionCookies({ domain: config.sessionCookieDomain }) : [];
  return reply({ ended: true }, { cookies });
});
