import type { EmailPreferences } from '../../../shared/schemas/account';
import { NotFound, Unauthorized } from '../errors';
import { getBatch } from './batches';
import type { UserItem } from './entities/user';
import { isConditionalCheckFailed } from './errors';
import type { Db } from './service';

/**
 * The user aggregate's access patterns: handlers and the apps' code call these, never the user
 * entity directly, so each pattern has one implementation (and one row in the data model).
 * Username and email uniqueness (identity claims) and the account's lifecycle stay with the
 * account app; this module only reads and writes the user item.
 *
 * Consistency rule: every read of a user item is strongly consistent. Almost every read follows
 * a write by the same person moments earlier (the login that created the account, the profile
 * or settings they just saved, the link that verified their address, an account deleted
 * meanwhile), and an eventually consistent read can show the state from before that write. A
 * user item is far below 4 KB, so a strong read costs one read unit instead of half a unit:
 * cheap enough that no caller has to work out which of its reads may safely be stale.
 */

/** A user by id, or null. */
export async function getUser(db: Db, options: { userId: string }): Promise<UserItem | null> {
  const { data } = await db.entities.user.get({ userId: options.userId }).go({ consistent: true });
  return data;
}

/** A user by id; 404 naming the id when there is none. */
export async function requireUser(db: Db, options: { userId: string }): Promise<UserItem> {
  const user = await getUser(db, options);
  if (!user) throw new NotFound(`There is no user with the id '${options.userId}'.`);
  return user;
}

/**
 * The signed-in caller's own user item, or null when the session outlived its account: the
 * account was deleted after the session was resolved, or a session survived its deletion for
 * the moment the per-user index lags. Either way the caller is treated as signed out.
 */
export async function getUserOfSession(db: Db, options: { userId: string }): Promise<UserItem | null> {
  return getUser(db, options);
}

/** As getUserOfSession, but a vanished account answers 401, as any other dead session does. */
export async function requireUserOfSession(db: Db, options: { userId: string }): Promise<UserItem> {
  const user = await getUserOfSession(db, options);
  if (!user) throw new Unauthorized();
  return user;
}

/** A user by username in any letter case, through the username claim; null when none. */
export async function getUserByUsername(db: Db, options: { username: string }): Promise<UserItem | null> {
  const value = options.username.trim().toLowerCase();
  if (!value) return null;
  const { data: claim } = await db.entities.identityClaim.get({ kind: 'username', value }).go({ consistent: true });
  if (!claim) return null;
  const user = await getUser(db, { userId: claim.userId });
  // A claim whose account is gone (or was renamed meanwhile) does not name this user.
  return user && user.username.toLowerCase() === value ? user : null;
}

/** A user by email in any letter case, through the email claim; null when none. */
export async function getUserByEmail(db: Db, options: { email: string }): Promise<UserItem | null> {
  const value = options.email.trim().toLowerCase();
  const { data: claim } = await db.entities.identityClaim.get({ kind: 'email', value }).go({ consistent: true });
  if (!claim) return null;
  return getUser(db, { userId: claim.userId });
}

/** Users by id in the order asked, each once; unknown ids are left out. One BatchGetItem (retried). */
export async function getUsers(db: Db, options: { userIds: readonly string[] }): Promise<UserItem[]> {
  const unique = [...new Set(options.userIds)];
  if (unique.length === 0) return [];
  const found = await getBatch({
    keys: unique.map((userId) => ({ userId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.user.get(keys).go({ consistent: true });
      return { data, unprocessed: unprocessed.map((key) => ({ userId: key.userId })) };
    },
    what: 'users',
  });
  const byId = new Map(found.map((user) => [user.userId, user]));
  return unique.flatMap((userId) => byId.get(userId) ?? []);
}

/** Notes a successful login on the user item. */
export async function recordLogin(db: Db, options: { userId: string; at: string }): Promise<void> {
  await db.entities.user.patch({ userId: options.userId }).set({ lastLoginAt: options.at }).go();
}

/** Replaces a user's email preferences; false when the account no longer exists (nothing is created). */
export async function setEmailPreferences(
  db: Db,
  options: { userId: string; emailPreferences: EmailPreferences },
): Promise<boolean> {
  try {
    // patch: only an existing account (a session may outlive a deleted one).
    await db.entities.user.patch({ userId: options.userId }).set({ emailPreferences: options.emailPreferences }).go();
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** A user's address as the key of what was sent to it: lower-cased, and only once they verified it. */
export function verifiedEmailOfUser(user: Pick<UserItem, 'email' | 'emailVerified'>): string | null {
  return user.email && user.emailVerified ? user.email.toLowerCase() : null;
}
