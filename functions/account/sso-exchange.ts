import * as ssoRoutes from '../../shared/routes/sso';
import { toCurrentUser } from '../lib/accounts';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { createSession } from '../lib/sessions';
import { normaliseOrigin } from '../lib/app-auth';
import { spendSsoCode, SsoCodeError } from './lib/sso-codes';

/**
 * Single sign-on, step 2: the sibling app's server (app id + private app token, never a
 * browser) turns the code from its return URL into a session of its own. Requiring app
 * credentials means a code that leaks from a URL (history, logs) is useless on its own; the
 * code is also spent once, within 60 seconds, only by the app registered for the origin it was
 * sent to (403 for any other app). Superusers
 * pass the 'app' access check but are refused here: this would let them become anyone.
 */
export const handler = createHandler(ssoRoutes.ssoExchange, async ({ body, caller }) => {
  const origin = normaliseOrigin(body.origin);
  if (!origin) throw new SsoCodeError('SSO_CODE_WRONG_ORIGIN', 'This sign-on code was issued to another app.');
  const db = getDb();
  const { userId } = await spendSsoCode(db, { code: body.code, origin, appId: caller.appId });
  const user = await getUser(db, { userId });
  if (!user) throw new SsoCodeError('INVALID_SSO_CODE', 'This sign-on code is not valid. Start the sign-on again.');
  const session = await createSession(db, user.userId, { userAgent: `sso ${origin} (${caller.appId})` });
  logger.info('Signed in by single sign-on', { userId: user.userId, origin, appId: caller.appId });
  return { sessionToken: session.token, user: toCurrentUser(user) };
});
