import { loginReturnPath } from '../../shared/return-path';
import * as oauthRoutes from '../../shared/routes/oauth';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { ServiceUnavailable } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { startLogin } from './lib/login-state';
import { TWITTER_STATE_PROVIDER, twitterAuthorizationUrl, twitterBindingCookie, twitterSettings } from './lib/twitter-provider';

const settings = twitterSettings(getConfig());

/**
 * Starts a Twitter login: state and PKCE verifier are stored server-side for 10 minutes, bound
 * to this browser by a short-lived HttpOnly cookie; the browser then navigates the top window
 * to the returned URL.
 */
export const handler = createHandler(oauthRoutes.twitterLoginUrl, async ({ query }) => {
  if (!settings) throw new ServiceUnavailable('Twitter login is not configured.');
  const login = await startLogin(getDb(), { provider: TWITTER_STATE_PROVIDER, returnTo: loginReturnPath(query.returnTo) });
  const url = twitterAuthorizationUrl(settings, login);
  return reply({ url: url.href }, { cookies: [twitterBindingCookie(login.binding)] });
});
