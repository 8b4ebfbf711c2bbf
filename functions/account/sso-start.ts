import * as ssoRoutes from '../../shared/routes/sso';
import { hashToken } from '../lib/app-auth';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { redirect } from '../lib/http/responses';
import { issueSsoCode, signOnOrigin, SsoAppNotAllowed } from './lib/sso-codes';

const config = getConfig();

/**
 * Single sign-on, step 1 (a top-level browser navigation from a sibling app). The return URL
 * must be on an origin a registered app owns (or the web app's own), so codes never go
 * anywhere else. Signed in:
 * back with a one-time `ssoCode` that the sibling's server exchanges (POST
 * /auth/login/sso/exchange) for its own session. Signed out: back with
 * `ssoError=login_required`, and the sibling shows its own login.
 */
export const handler = createHandler(ssoRoutes.ssoStart, async ({ query, caller, sessionToken }) => {
  const db = getDb();
  const origin = await signOnOrigin(db, query.returnUrl, config.webOrigin);
  if (!origin) throw new SsoAppNotAllowed();
  const target = new URL(query.returnUrl);
  target.searchParams.delete('ssoCode');
  target.searchParams.delete('ssoError');
  if (caller.kind === 'user' && sessionToken) {
    const { code } = await issueSsoCode(db, {
      userId: caller.userId,
      origin,
      sessionTokenHash: hashToken(sessionToken),
    });
    target.searchParams.set('ssoCode', code);
  } else {
    target.searchParams.set('ssoError', 'login_required');
  }
  // no-referrer: the sibling page must not pass its code-bearing URL on in a Referer.
  return redirect(target.href);
});
