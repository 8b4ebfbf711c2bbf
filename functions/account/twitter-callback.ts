import * as oauthRoutes from '../../shared/routes/oauth';
import { TWITTER_CONNECTED_FRAGMENT, withLoginArrival } from '../../shared/return-path';
import { getConfig } from '../lib/config';
import type { Db } from '../lib/db/service';
import { getDb } from '../lib/db/service';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { createHandler } from '../lib/http/create-handler';
import { redirect } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { createSession, sessionCookies } from '../lib/sessions';
import { signInWithProvider } from './lib/external-accounts';
import { BINDING_COOKIE, checkCallback } from './lib/login-state';
import {
  clearedTwitterBindingCookie,
  exchangeTwitterCode,
  fetchTwitterUser,
  TWITTER_ISSUER,
  TWITTER_STATE_PROVIDER,
  type TwitterFailureReason,
  type TwitterUser,
  twitterSettings,
} from './lib/twitter-provider';

const config = getConfig();
const settings = twitterSettings(config);

const failedPath = (reason: TwitterFailureReason) => `/login/failed?reason=${reason}`;

/**
 * Stores the Twitter connection on the signed-in user. 'already_linked' when that Twitter
 * account belongs to another user; connecting it again to the same user changes nothing.
 */
const handleOf = (twitter: TwitterUser) => (twitter.username ? { handle: twitter.username } : {});

async function connectToUser(db: Db, userId: string, twitter: TwitterUser): Promise<'connected' | 'already_linked'> {
  const key = { issuer: TWITTER_ISSUER, subject: twitter.id };
  const timestamp = new Date().toISOString();
  try {
    await db.entities.externalIdentity
      .create({ ...key, userId, ...handleOf(twitter), createdAt: timestamp, lastLoginAt: timestamp })
      .go();
    return 'connected';
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
  const { data: link } = await db.entities.externalIdentity.get(key).go({ consistent: true });
  if (link?.userId !== userId) return 'already_linked';
  await db.entities.externalIdentity
    .patch(key)
    .set({ ...handleOf(twitter), lastLoginAt: timestamp })
    .go();
  return 'connected';
}

/**
 * Where Twitter sends the browser back. Checks the provider's answer and the state (known, from
 * this browser, unused, unexpired: spent here once), exchanges the code with the PKCE verifier,
 * reads the user with the access token. A signed-in caller gets the connection stored on their
 * account; otherwise the linked user is signed in, or an account without email is created.
 * Every refusal redirects to /login/failed. Tokens are never logged.
 */
export const handler = createHandler(oauthRoutes.twitterCallback, async ({ query, cookies, headers, caller }) => {
  const cleared = clearedTwitterBindingCookie();
  const fail = (reason: TwitterFailureReason, detail: string) => {
    logger.warn('Twitter login refused', { reason, detail });
    return redirect(failedPath(reason), [cleared]);
  };
  const db = getDb();
  const checked = await checkCallback(db, {
    provider: TWITTER_STATE_PROVIDER,
    configured: Boolean(settings),
    query,
    binding: cookies[BINDING_COOKIE] || undefined,
  });
  if ('reason' in checked) return fail(checked.reason, checked.detail);
  const { login, code } = checked;
  // checkCallback refused a missing configuration already; this narrows the type.
  if (!settings) return fail('not_configured', 'Twitter login is not configured');

  let twitter: TwitterUser;
  try {
    const accessToken = await exchangeTwitterCode(settings, code, login.codeVerifier);
    twitter = await fetchTwitterUser(settings, accessToken);
  } catch (error) {
    const { name, message } = error as Error;
    return fail('provider_error', `${name}: ${message}`);
  }

  if (caller.kind === 'user') {
    const outcome = await connectToUser(db, caller.userId, twitter);
    if (outcome === 'already_linked') return fail('already_linked', 'This Twitter account is connected to another user');
    logger.info('Connected Twitter', { userId: caller.userId });
    // The marker lets the account page confirm the connection with a toast.
    return redirect(`${login.returnTo}#${TWITTER_CONNECTED_FRAGMENT}`, [cleared]);
  }

  const { user, outcome } = await signInWithProvider(db, {
    issuer: TWITTER_ISSUER,
    subject: twitter.id,
    email: undefined,
    emailVerified: false,
    name: twitter.name ?? twitter.username,
    handle: twitter.username,
  });
  const session = await createSession(db, user.userId, { userAgent: headers['user-agent'] });
  logger.info('Logged in with Twitter', { userId: user.userId, outcome });
  // The marker lets the page greet the person and count the login, as after Google's.
  return redirect(withLoginArrival(login.returnTo, outcome === 'created', 'twitter'), [
    cleared,
    ...sessionCookies(session.token, { domain: config.sessionCookieDomain }),
  ]);
});
