import * as oauthRoutes from '../../shared/routes/oauth';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { HttpError, NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { TWITTER_ISSUER } from './lib/twitter-provider';

export const ONLY_LOGIN_METHOD_MESSAGE = 'Add an email address or another login before disconnecting Twitter.';

/**
 * Removes the signed-in user's Twitter connection. Refused (409 ONLY_LOGIN_METHOD) when it is
 * their only way to log in: no verified email and no other outside login.
 */
export const handler = createHandler(oauthRoutes.disconnectTwitter, async ({ caller }) => {
  const db = getDb();
  const [user, { data: identities }] = await Promise.all([
    getUser(db, { userId: caller.userId }),
    db.entities.externalIdentity.query.byUser({ userId: caller.userId }).go({ pages: 'all' }),
  ]);
  if (!user) throw new NotFound('This account no longer exists.');
  const twitter = identities.filter((identity) => identity.issuer === TWITTER_ISSUER);
  if (twitter.length === 0) return { disconnected: false };
  const hasVerifiedEmail = Boolean(user.email && user.emailVerified);
  const hasOtherLogin = identities.some((identity) => identity.issuer !== TWITTER_ISSUER);
  if (!hasVerifiedEmail && !hasOtherLogin) throw new HttpError(409, 'ONLY_LOGIN_METHOD', ONLY_LOGIN_METHOD_MESSAGE);
  await Promise.all(
    twitter.map((identity) => db.entities.externalIdentity.delete({ issuer: identity.issuer, subject: identity.subject }).go()),
  );
  logger.info('Disconnected Twitter', { userId: caller.userId });
  return { disconnected: true };
});
