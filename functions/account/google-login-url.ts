import { loginReturnPath } from '../../shared/return-path';
import * as client from 'openid-client';
import * as oauthRoutes from '../../shared/routes/oauth';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { ServiceUnavailable } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { googleClient, googleSettings } from './lib/google-provider';
import { isBotCheckEnforced, requireBotPass } from './lib/bot-check';
import { bindingCookie, startLogin } from './lib/login-state';

const config = getConfig();
const settings = googleSettings(config);
const botCheckEnforced = isBotCheckEnforced(config);

/**
 * Starts a Google login: state, nonce and PKCE verifier are stored server-side for 10 minutes,
 * bound to this browser by a short-lived HttpOnly cookie; the browser then navigates the top
 * window to the returned URL. With reCAPTCHA configured, only a browser holding a fresh pass
 * from the bot check (a one-time HttpOnly cookie, spent here) may start one: 403 otherwise.
 */
export const handler = createHandler(oauthRoutes.googleLoginUrl, async ({ query, cookies }) => {
  if (!settings) throw new ServiceUnavailable('Google login is not configured.');
  let oidc: client.Configuration;
  try {
    oidc = await googleClient(settings);
  } catch (error) {
    logger.warn('Google OpenID discovery failed', { errorName: (error as Error).name, errorMessage: (error as Error).message });
    throw new ServiceUnavailable('Google login is unavailable right now. Please try again in a minute, or log in by email.');
  }
  const db = getDb();
  // After discovery, so an outage at Google does not cost the browser its pass.
  if (botCheckEnforced) await requireBotPass(db, cookies);
  const login = await startLogin(db, { provider: 'google', returnTo: loginReturnPath(query.returnTo) });
  const url = client.buildAuthorizationUrl(oidc, {
    redirect_uri: settings.redirectUri,
    scope: 'openid email profile',
    state: login.state,
    nonce: login.nonce,
    code_challenge: login.codeChallenge,
    code_challenge_method: 'S256',
    prompt: 'select_account',
  });
  return reply({ url: url.href }, { cookies: [bindingCookie(login.binding)] });
});
