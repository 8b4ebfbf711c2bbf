import * as ssoRoutes from '../../shared/routes/sso';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { clearedSessionCookies, deleteSession, endAllSessions } from '../lib/sessions';

const config = getConfig();

/**
 * Logs the user out of every sibling app: each app holds its own session (exchanged at sign-on)
 * or shares the parent-domain cookie, and all of them are deleted server-side. The current
 * token is deleted by key as well, since the per-user index lags a moment behind a new login.
 * Pending sign-on codes die too: an exchange needs the session that asked for the code.
 */
export const handler = createHandler(ssoRoutes.ssoLogout, async ({ caller, sessionToken: token }) => {
  const db = getDb();
  let sessionsEnded = 0;
  if (caller.kind === 'user') {
    sessionsEnded = await endAllSessions(db, caller.userId);
    logger.info('Logged out of every app', { userId: caller.userId, sessionsEnded });
  }
  if (token) await deleteSession(db, token);
  const cookies = clearedSessionCookies({ domain: config.sessionCookieDomain });
  return reply({ loggedOut: true, sessionsEnded }, { cookies });
});
