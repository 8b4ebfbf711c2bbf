import type * as z from '../../../shared/zod';
import {
  DEFAULT_EMAIL_PREFERENCES,
  type EmailPreferences,
  type profileBodySchema,
  type UserSettings,
} from '../../../shared/schemas/account';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { UserItem } from '../../lib/db/entities/user';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { requireUser } from '../../lib/db/users';
import { BadRequest, Conflict } from '../../lib/errors';
import { checkUsername } from '../../lib/accounts';

export type ProfileChanges = z.output<typeof profileBodySchema>;

export const USERNAME_TAKEN = 'That username is taken';
const PROFILE_CHANGED_ELSEWHERE = 'Your profile was changed elsewhere at the same time. Please try again.';

/**
 * Merges settings into a user's settings. The write is conditioned on the settings read, so two
 * concurrent merges cannot drop each other's keys: the loser re-reads and merges again.
 */
export async function mergeSettings(db: Db, userId: string, changes: UserSettings): Promise<UserSettings> {
  const giveUp = (cause: unknown) =>
    new Conflict('Your settings are being changed elsewhere at the same time. Please try again.', { cause });
  // A failed condition (changed meanwhile, or the account was deleted) is thrown, and retried: read again.
  return retryContendedWrite({ what: 'changing settings', giveUp }, async () => {
    const user = await requireUser(db, { userId });
    const current = (user.settings ?? undefined) as UserSettings | undefined;
    const merged: UserSettings = { ...(current ?? {}), ...changes };
    await db.entities.user
      .patch({ userId })
      .set({ settings: merged })
      .where((attr, op) => (current === undefined ? op.notExists(attr.settings) : op.eq(attr.settings, current)))
      .go();
    return merged;
  });
}

/** The attribute changes of a profile update other than the username. */
function profileAttributeChanges(changes: ProfileChanges) {
  const set: { name?: string; websiteUrl?: string; imageUrl?: string; hasOwnImageUrl?: boolean } = {};
  const remove: ('websiteUrl' | 'imageUrl')[] = [];
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.websiteUrl === null) remove.push('websiteUrl');
  else if (changes.websiteUrl !== undefined) set.websiteUrl = changes.websiteUrl;
  if (changes.imageUrl === null) {
    remove.push('imageUrl');
    set.hasOwnImageUrl = false;
  } else if (changes.imageUrl !== undefined) {
    set.imageUrl = changes.imageUrl;
    set.hasOwnImageUrl = true;
  }
  return { set, remove };
}

/**
 * Applies a profile update for a user and returns the user as stored afterwards.
 *
 * A new username is checked first (a clear 409 or 400), then claimed in one transaction: the new
 * claim is created only if nobody holds it, the old claim is deleted only if it is this user's,
 * and the user item changes only if its username is still the one read. A canceled transaction
 * means someone else won the race for the name (409), or the profile changed meanwhile.
 */
export async function updateProfile(db: Db, userId: string, changes: ProfileChanges, now = new Date()): Promise<UserItem> {
  const user = await requireUser(db, { userId });
  const { set, remove } = profileAttributeChanges(changes);
  const wanted = changes.username;
  const usernameChanges = wanted !== undefined && wanted !== user.username;
  const newLower = wanted?.toLowerCase();
  const oldLower = user.username.toLowerCase();

  if (usernameChanges && newLower !== oldLower) {
    const verdict = await checkUsername(db, wanted);
    if (!verdict.isFree) {
      if (verdict.reason.endsWith('is taken')) throw new Conflict(USERNAME_TAKEN);
      throw new BadRequest(verdict.reason, { fields: [{ in: 'body', field: 'username', message: verdict.reason }] });
    }
    const giveUp = (cause: unknown) => new Conflict(PROFILE_CHANGED_ELSEWHERE, { cause });
    return retryContendedWrite({ what: 'changing their profile', giveUp }, async () => {
      const result = await db.transaction
        .write(({ user: users, identityClaim }) => [
          identityClaim.create({ kind: 'username', value: newLower as string, userId, createdAt: now.toISOString() }).commit(),
          identityClaim
            .delete({ kind: 'username', value: oldLower })
            .where((attr, op) => op.eq(attr.userId, userId))
            .commit(),
          users
            .patch({ userId })
            .set({ ...set, username: wanted })
            .remove(remove)
            .where((attr, op) => op.eq(attr.username, user.username))
            .commit(),
        ])
        .go();
      if (!result.canceled) return requireUser(db, { userId });
      // Why: someone holds the name now (they won), or this profile changed meanwhile, or the
      // transaction only collided with another one in flight (neither condition failed): retry.
      const { data: claim } = await db.entities.identityClaim.get({ kind: 'username', value: newLower as string }).go();
      if (claim && claim.userId !== userId) throw new Conflict(USERNAME_TAKEN);
      const current = await requireUser(db, { userId });
      if (current.username !== user.username) throw new Conflict(PROFILE_CHANGED_ELSEWHERE);
      return lostRace(result);
    });
  }

  // No new claim needed: only the letter case of one's own username, or no username change at all.
  const attributes = usernameChanges ? { ...set, username: wanted } : set;
  if (Object.keys(attributes).length === 0 && remove.length === 0) return user;
  try {
    await db.entities.user
      .patch({ userId })
      .set(attributes)
      .remove(remove)
      .where((attr, op) => op.eq(attr.username, user.username))
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    throw new Conflict(PROFILE_CHANGED_ELSEWHERE);
  }
  return requireUser(db, { userId });
}

/** A user's email preferences: what they chose, or the defaults when they never chose. */
export function emailPreferencesOf(user: UserItem): EmailPreferences {
  return { ...DEFAULT_EMAIL_PREFERENCES, ...((user.emailPreferences ?? {}) as Partial<EmailPreferences>) };
}
