import type { FollowState } from '../../../shared/schemas/stories';
import { getBatch } from '../../lib/db/batches';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { requireUser } from '../../lib/db/users';
import { BadRequest, Forbidden } from '../../lib/errors';
import { type NotificationWrites, prepareNotification } from '../../lib/notifications';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';

export async function followState(db: Db, followerId: string, followedId: string): Promise<FollowState> {
  const [user, { data: follow }] = await Promise.all([
    requireUser(db, { userId: followedId }),
    db.entities.follow.get({ followerId, followedId }).go({ consistent: true }),
  ]);
  return {
    userId: user.userId,
    following: Boolean(follow),
    followerCount: user.followerCount ?? 0,
    followingCount: user.followingCount ?? 0,
  };
}

/**
 * Follows (`on`) or stops following (`off`) a user. The follow item, both users' counts and, for
 * a follow, the followed user's notification change in one transaction, conditioned on the
 * item's existence, so counts stay exact under concurrent calls and a repeat changes nothing.
 * Nobody follows themselves, nor someone who blocked them. Answers the notification written, if
 * any, for the caller to email.
 */
export async function setFollow(
  db: Db,
  followerId: string,
  followedId: string,
  status: 'on' | 'off',
  now: Date,
): Promise<NotificationWrites | null> {
  if (followerId === followedId) throw new BadRequest('You cannot follow yourself.');
  const [, { data: block }] = await Promise.all([
    requireUser(db, { userId: followedId }),
    db.entities.block.get({ userId: followedId, blockedUserId: followerId }).go(),
  ]);
  if (block && status === 'on') throw new Forbidden('You cannot follow this user.');
  const step = status === 'on' ? 1 : -1;
  return retryContendedWrite({ what: 'following this person' }, async () => {
    const notification =
      status === 'on'
        ? await prepareNotification(db, {
            recipientId: followedId,
            actorId: followerId,
            kind: 'user-followed',
            object: { type: 'user', id: followedId },
            at: now,
          })
        : null;
    const result = await db.transaction
      .write((entities) => [
        status === 'on'
          ? entities.follow.create({ followerId, followedId, createdAt: now.toISOString() }).commit()
          : entities.follow
              .delete({ followerId, followedId })
              .where(({ createdAt }, { exists }) => exists(createdAt))
              .commit(),
        entities.user.patch({ userId: followerId }).add({ followingCount: step }).commit(),
        // The followed user's item once: their follower count and, with it, their unseen count.
        entities.user
          .patch({ userId: followedId })
          .add({ followerCount: step, ...notification?.unseenIncrement })
          .commit(),
        ...(notification?.commits(entities, { count: false }) ?? []),
      ])
      .go();
    if (!result.canceled) return notification;
    // Already following (or already not): nothing to change.
    if (failedConditions(result).includes(0)) return null;
    return lostRace(result);
  });
}

/** Which of `userIds` the caller follows, in the order asked: one BatchGetItem. */
export async function filterFollowing(db: Db, followerId: string, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await getBatch({
    keys: userIds.map((followedId) => ({ followerId, followedId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.follow.get(keys).go({ consistent: true });
      return { data, unprocessed: unprocessed.map((key) => ({ followerId: key.followerId, followedId: key.followedId })) };
    },
    what: 'follows',
  });
  const followed = new Set(found.map((item) => item.followedId));
  return userIds.filter((id) => followed.has(id));
}
