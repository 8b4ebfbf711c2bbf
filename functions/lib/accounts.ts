import { randomBytes, randomUUID } from 'node:crypto';
import { APP_NAME } from '../../shared/constants';
import { type CurrentUser, type PublicUser, RESERVED_USERNAMES, usernameSchema } from '../../shared/schemas/account';
import { lostRace, retryContendedWrite } from './contended-writes';
import type { UserItem } from './db/entities/user';
import type { Db } from './db/service';
import { getUser, recordLogin } from './db/users';

const RESERVED = new Set<string>(RESERVED_USERNAMES);

/** The current-user answer (GET /me/v, logins, single sign-on): what every app's top bar shows. */
export function toCurrentUser(user: UserItem): CurrentUser {
  return {
    userId: user.userId,
    username: user.username,
    name: user.name ?? '',
    imageUrl: user.imageUrl ?? null,
    pennameAccountUrl: '/me',
    numUnseenNotifications: user.numUnseenNotifications ?? 0,
    ssoAppNumUnseenNotifications: user.ssoAppNumUnseenNotifications ?? 0,
    isSuperUser: user.isSuperUser ?? false,
  };
}

/** What anyone may see of a user: never the email. */
export function toPublicUser(user: UserItem): PublicUser {
  return {
    id: user.userId,
    userId: user.userId,
    username: user.username,
    name: user.name ?? '',
    createdAt: user.createdAt,
    imageUrl: user.imageUrl ?? null,
    hasOwnImageUrl: user.hasOwnImageUrl ?? false,
    hasEmail: Boolean(user.email),
    hasValidEmail: Boolean(user.email) && (user.emailVerified ?? false),
    isSuperUser: user.isSuperUser ?? false,
    websiteUrl: user.websiteUrl ?? null,
    lastLoginAt: user.lastLoginAt,
    followerCount: Math.max(0, user.followerCount ?? 0),
    followingCount: Math.max(0, user.followingCount ?? 0),
  };
}

/** The owner's (or an app's) view of a user, email included. */
export function toFullUser(user: UserItem) {
  return { ...toPublicUser(user), email: user.email ?? null, emailVerified: user.emailVerified ?? false };
}

export type UsernameVerdict = { isFree: true; reason: null } | { isFree: false; reason: string };

/** Whether a username could be claimed now (the claim itself is still a conditional write). */
export async function checkUsername(db: Db, candidate: string): Promise<UsernameVerdict> {
  const parsed = usernameSchema.safeParse(candidate);
  if (!parsed.success) return { isFree: false, reason: parsed.error.issues[0]?.message ?? 'Not a valid username' };
  const lower = parsed.data.toLowerCase();
  if (RESERVED.has(lower)) return { isFree: false, reason: `'${parsed.data}' is reserved` };
  const { data } = await db.entities.identityClaim.get({ kind: 'username', value: lower }).go();
  return data ? { isFree: false, reason: `'${parsed.data}' is taken` } : { isFree: true, reason: null };
}

/** A readable starting username from an email address: 'Jane.Doe+x@…' -> 'janedoe'. */
export function usernameBase(email: string): string {
  const local = (email.split('@')[0] ?? '').split('+')[0] ?? '';
  const cleaned = local
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '')
    .slice(0, 20);
  return cleaned.length >= 3 && !RESERVED.has(cleaned) ? cleaned : `reader${cleaned}`.slice(0, 20);
}

/** The first try is the base itself; later tries (after a lost race or a taken name) add a number. */
export function candidateUsername(base: string, attempt: number): string {
  return attempt === 0 ? base : `${base}${randomBytes(2).readUInt16BE(0) % 10_000}`;
}

/** A new account's item; an email passed here must already be verified. */
export function newUserItem(fields: { username: string; timestamp: string; email?: string; name?: string }): UserItem {
  return {
    userId: randomUUID(),
    username: fields.username,
    name: fields.name ?? '',
    ...(fields.email ? { email: fields.email } : {}),
    emailVerified: Boolean(fields.email),
    hasOwnImageUrl: false,
    isSuperUser: false,
    numUnseenNotifications: 0,
    ssoAppNumUnseenNotifications: 0,
    createdAt: fields.timestamp,
    lastLoginAt: fields.timestamp,
  };
}

/**
 * The account of a verified email, created at its first successful login. The user, its email
 * claim and its username claim are written in one transaction, so a lost race on either
 * identity leaves nothing behind and is retried.
 */
export async function findOrCreateUserByEmail(
  db: Db,
  rawEmail: string,
  now: Date = new Date(),
): Promise<{ user: UserItem; isNew: boolean }> {
  const email = rawEmail.trim().toLowerCase();
  return retryContendedWrite({ what: `joining ${APP_NAME}` }, async (attempt) => {
    const { data: claim } = await db.entities.identityClaim.get({ kind: 'email', value: email }).go();
    if (claim) {
      const user = await getUser(db, { userId: claim.userId });
      if (user) {
        await recordLogin(db, { userId: user.userId, at: now.toISOString() });
        return { user: { ...user, lastLoginAt: now.toISOString() }, isNew: false };
      }
    }
    const username = candidateUsername(usernameBase(email), attempt);
    const timestamp = now.toISOString();
    const user = newUserItem({ username, email, timestamp });
    // ElectroDB reports a failed condition as `canceled`, not as an error: someone else won.
    const result = await db.transaction
      .write(({ user: users, identityClaim }) => [
        users.create(user).commit(),
        identityClaim.create({ kind: 'email', value: email, userId: user.userId, createdAt: timestamp }).commit(),
        identityClaim.create({ kind: 'username', value: username, userId: user.userId, createdAt: timestamp }).commit(),
      ])
      .go();
    return result.canceled ? lostRace(result) : { user, isNew: true };
  });
}
