import { candidateUsername, findOrCreateUserByEmail, newUserItem, usernameBase } from '../../lib/accounts';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { UserItem } from '../../lib/db/entities/user';
import type { Db } from '../../lib/db/service';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import { getUser, recordLogin } from '../../lib/db/users';

/** Who the provider says signed in, from a validated ID token. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  /** Lower-cased; absent when the provider gave none. */
  email: string | undefined;
  /** Only a provider-verified email may log into, or link to, an account that has it. */
  emailVerified: boolean;
  name: string | undefined;
  /** The provider's public handle, when it has one (Twitter's username). */
  handle?: string | undefined;
}

export type SignInOutcome = 'returning' | 'linked' | 'created';

/**
 * Google's ID tokens name their issuer two ways ("https://accounts.google.com" and
 * "accounts.google.com", both documented): one Google account must be one link, whichever a
 * login carried. Links are made under the first spelling and found under either.
 */
const ISSUER_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  'https://accounts.google.com': ['https://accounts.google.com', 'accounts.google.com'],
  'accounts.google.com': ['https://accounts.google.com', 'accounts.google.com'],
};

/** The spelling an issuer's links are made under. */
export function canonicalIssuer(issuer: string): string {
  return ISSUER_SPELLINGS[issuer]?.[0] ?? issuer;
}

const MAX_NAME = 80;

/** The email_verified claim: a boolean, or (some providers) the string "true". */
export const isVerifiedClaim = (value: unknown) => value === true || value === 'true';

/**
 * The account for a provider login:
 * 1. the account already linked to this issuer + subject;
 * 2. else, when the provider says the email is verified, the account whose verified email it is
 *    (now linked), or a new account with that email (findOrCreateUserByEmail);
 * 3. else a new account without an email: an unverified address proves nothing, so it neither
 *    links to an account that has it nor is stored on the new one.
 * Links are created with a not-exists condition; a lost race is retried and finds the winner.
 */
export async function signInWithProvider(
  db: Db,
  login: ProviderIdentity,
  now: Date = new Date(),
): Promise<{ user: UserItem; outcome: SignInOutcome }> {
  const timestamp = now.toISOString();
  const identity = { ...login, issuer: canonicalIssuer(login.issuer) };
  return retryContendedWrite({ what: 'signing in' }, async (attempt) => {
    const linked = await linkedUser(db, identity, timestamp);
    if (linked) return { user: linked, outcome: 'returning' };

    if (identity.email && identity.emailVerified) {
      const owner = await ownerOfEmail(db, identity.email);
      if (owner !== 'unverified') {
        const { user, isNew } = owner ? { user: owner, isNew: false } : await findOrCreateUserByEmail(db, identity.email, now);
        if (await linkIdentity(db, identity, user.userId, timestamp)) {
          const name = cleanName(identity.name);
          const patch = { lastLoginAt: timestamp, ...(isNew && name && !user.name ? { name } : {}) };
          await db.entities.user.patch({ userId: user.userId }).set(patch).go();
          return { user: { ...user, ...patch }, outcome: isNew ? 'created' : 'linked' } as const;
        }
        return lostRace('Another login linked this provider account first');
      }
    }
    const created = await createUserWithoutEmail(db, identity, attempt, timestamp);
    return created ? ({ user: created, outcome: 'created' } as const) : lostRace('The username or the link was taken meanwhile');
  });
}

/**
 * The user linked to this provider account, under any spelling of its issuer; a link left
 * behind by a deleted account is removed.
 */
async function linkedUser(db: Db, identity: ProviderIdentity, timestamp: string): Promise<UserItem | null> {
  const spellings = ISSUER_SPELLINGS[identity.issuer] ?? [identity.issuer];
  const { data: links } = await db.entities.externalIdentity
    .get(spellings.map((issuer) => ({ issuer, subject: identity.subject })))
    .go({ consistent: true });
  const link = links[0];
  if (!link) return null;
  const key = { issuer: link.issuer, subject: link.subject };
  const user = await getUser(db, { userId: link.userId });
  if (!user) {
    await db.entities.externalIdentity.delete(key).go();
    return null;
  }
  await Promise.all([
    recordLogin(db, { userId: user.userId, at: timestamp }),
    db.entities.externalIdentity
      .patch(key)
      .set({ lastLoginAt: timestamp, ...(identity.handle ? { handle: identity.handle } : {}) })
      .go(),
  ]);
  return { ...user, lastLoginAt: timestamp };
}

/** The account holding this email: the user when its email is verified and equal, 'unverified' when held otherwise. */
async function ownerOfEmail(db: Db, email: string): Promise<UserItem | 'unverified' | null> {
  const { data: claim } = await db.entities.identityClaim.get({ kind: 'email', value: email }).go({ consistent: true });
  if (!claim) return null;
  const user = await getUser(db, { userId: claim.userId });
  return user && user.emailVerified && user.email?.toLowerCase() === email ? user : 'unverified';
}

async function linkIdentity(db: Db, identity: ProviderIdentity, userId: string, timestamp: string): Promise<boolean> {
  try {
    await db.entities.externalIdentity
      .create({
        issuer: identity.issuer,
        subject: identity.subject,
        userId,
        ...(identity.email && identity.emailVerified ? { email: identity.email } : {}),
        ...(identity.handle ? { handle: identity.handle } : {}),
        createdAt: timestamp,
        lastLoginAt: timestamp,
      })
      .go();
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

const cleanName = (name: string | undefined) => (name ?? '').trim().slice(0, MAX_NAME);

/**
 * A new account with no email, its username claim and its link in one transaction: a lost race
 * on the username or on the link leaves nothing behind (undefined: the caller looks again).
 */
async function createUserWithoutEmail(
  db: Db,
  identity: ProviderIdentity,
  attempt: number,
  timestamp: string,
): Promise<UserItem | undefined> {
  const name = cleanName(identity.name);
  const username = candidateUsername(usernameBase(name || 'reader'), attempt);
  const user = newUserItem({ username, name, timestamp });
  const { canceled } = await db.transaction
    .write(({ user: users, identityClaim, externalIdentity }) => [
      users.create(user).commit(),
      identityClaim.create({ kind: 'username', value: username, userId: user.userId, createdAt: timestamp }).commit(),
      externalIdentity
        .create({
          issuer: identity.issuer,
          subject: identity.subject,
          userId: user.userId,
          ...(identity.handle ? { handle: identity.handle } : {}),
          createdAt: timestamp,
          lastLoginAt: timestamp,
        })
        .commit(),
    ])
    .go();
  return canceled ? undefined : user;
}
