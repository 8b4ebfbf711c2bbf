import { loginReturnPath } from '../../shared/return-path';
import * as accountRoutes from '../../shared/routes/account';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { createSession, sessionCookies } from '../lib/sessions';
import { findOrCreateUserByEmail, toCurrentUser } from '../lib/accounts';
import { spendLoginLink } from './lib/login-links';

const config = getConfig();

/**
 * Spends a login link (POSTed by the web confirm page, which reads it from the URL fragment)
 * and starts a session. The account is created here, at the first successful login, because
 * only now is the address proven. The session token goes out only in the HttpOnly cookie; the
 * answer says where to land: the page the login started from, as the link recorded it.
 */
export const handler = createHandler(accountRoutes.confirmLoginEmail, async ({ body, headers }) => {
  const db = getDb();
  const { email, contextData } = await spendLoginLink(db, body.token);
  const { user, isNew } = await findOrCreateUserByEmail(db, email);
  const session = await createSession(db, user.userId, { userAgent: headers['user-agent'] });
  logger.info('Logged in by email link', { userId: user.userId, isNewAccount: isNew });
  return reply(
    { user: toCurrentUser(user), isNewAccount: isNew, returnTo: loginReturnPath(contextData?.pagePath) },
    { cookies: sessionCookies(session.token, { domain: config.sessionCookieDomain }) },
  );
});
