import * as accountRoutes from '../../shared/routes/account';
import type { UserSettings } from '../../shared/schemas/account';
import type { ExternalIdentityItem } from '../lib/db/entities/external-identity';
import { getDb } from '../lib/db/service';
import { getUserOfSession, getUsers } from '../lib/db/users';
import { Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { TWITTER_ISSUER } from './lib/twitter-provider';
import { toFullUser, toPublicUser } from '../lib/accounts';
import { canonicalIssuer } from './lib/external-accounts';
import { emailPreferencesOf } from './lib/profile';

/**
 * The caller's own account in one answer: full user, settings, email preferences and the users
 * they blocked (newest block first; blocked accounts deleted since are left out), and their
 * connected outside logins (Google, Twitter), oldest first.
 */
/** Oldest first, each provider account once, even when linked under two spellings of its issuer. */
function oncePerAccount(identities: readonly ExternalIdentityItem[]): ExternalIdentityItem[] {
  const seen = new Set<string>();
  return [...identities]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .filter((identity) => {
      const account = `${canonicalIssuer(identity.issuer)} ${identity.subject}`;
      if (seen.has(account)) return false;
      seen.add(account);
      return true;
    });
}

export const handler = createHandler(accountRoutes.getAccount, async ({ caller }) => {
  const db = getDb();
  const [user, { data: blocks }, { data: identities }] = await Promise.all([
    getUserOfSession(db, { userId: caller.userId }),
    db.entities.block.query.byUser({ userId: caller.userId }).go({ pages: 'all' }),
    db.entities.externalIdentity.query.byUser({ userId: caller.userId }).go({ pages: 'all' }),
  ]);
  if (!user) throw new Unauthorized();

  const newestFirst = [...blocks].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  // getUsers keeps the order it is given.
  const blockedUsers = await getUsers(db, { userIds: newestFirst.map((block) => block.blockedUserId) });

  return {
    user: toFullUser(user),
    settings: (user.settings ?? {}) as UserSettings,
    emailPreferences: emailPreferencesOf(user),
    blockedUsers: blockedUsers.map(toPublicUser),
    connectedAccounts: oncePerAccount(identities).map((identity) => ({
      provider: identity.issuer === TWITTER_ISSUER ? ('twitter' as const) : ('google' as const),
      // Twitter by its @handle, Google by the email it vouched for.
      displayName:
        identity.issuer === TWITTER_ISSUER ? (identity.handle ? `@${identity.handle}` : null) : (identity.email ?? null),
      connectedAt: identity.createdAt,
    })),
  };
});
