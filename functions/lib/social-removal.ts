import { writeBatch } from './db/batches';
import { failedConditions } from './db/errors';
import type { Db } from './db/service';

/**
 * What a deleted account leaves behind, removed: its follows in both directions, each with the
 * other person's count, its notifications and its following feed. Stories it shared and its
 * likes stay (a story's sharer then shows as nobody; a like count counts what happened).
 */
export async function removeSocialTracesOf(db: Db, userId: string): Promise<void> {
  await Promise.all([deleteFollowsOf(db, userId), deleteNotificationsOf(db, userId)]);
}

/**
 * Each follow goes with the other person's following or follower count in one transaction, so
 * their counts stay exact. When the other person's account is gone too, the follow goes alone.
 */
async function deleteFollowsOf(db: Db, userId: string): Promise<void> {
  const [{ data: following }, { data: followers }] = await Promise.all([
    db.entities.follow.query.byFollower({ followerId: userId }).go({ pages: 'all' }),
    db.entities.follow.query.byFollowed({ followedId: userId }).go({ pages: 'all' }),
  ]);
  const unfollow = async (
    follow: { followerId: string; followedId: string },
    other: string,
    count: 'followerCount' | 'followingCount',
  ) => {
    const key = { followerId: follow.followerId, followedId: follow.followedId };
    const result = await db.transaction
      .write(({ follow: follows, user }) => [
        follows.delete(key).commit(),
        user
          .patch({ userId: other })
          .add({ [count]: -1 })
          .commit(),
      ])
      .go();
    if (result.canceled && failedConditions(result).includes(1)) await db.entities.follow.delete(key).go();
    else if (result.canceled) throw new Error(`Could not remove the follow ${follow.followerId} -> ${follow.followedId}`);
  };
  // One at a time per direction: each touches another person's item, and a burst of
  // transactions on one partition is what DynamoDB throttles.
  for (const follow of following) await unfollow(follow, follow.followedId, 'followerCount');
  for (const follow of followers) await unfollow(follow, follow.followerId, 'followingCount');
}

/** The user's own partition: notifications, their group pointers and the following feed. */
async function deleteNotificationsOf(db: Db, userId: string): Promise<void> {
  const [{ data: notifications }, { data: groups }, { data: timeline }] = await Promise.all([
    db.entities.notification.query.byId({ userId }).go({ pages: 'all' }),
    db.entities.notificationGroup.query.byGroup({ userId }).go({ pages: 'all' }),
    db.entities.timelineEntry.query.byReader({ userId }).go({ pages: 'all' }),
  ]);
  await Promise.all([
    writeBatch({
      items: notifications.map((item) => ({ userId: item.userId, notificationId: item.notificationId })),
      send: (keys) => db.entities.notification.delete(keys).go(),
      keyOf: (key) => key.notificationId,
      what: 'notifications',
    }),
    writeBatch({
      items: groups.map((item) => ({ userId: item.userId, groupKey: item.groupKey })),
      send: (keys) => db.entities.notificationGroup.delete(keys).go(),
      keyOf: (key) => key.groupKey,
      what: 'notification groups',
    }),
    writeBatch({
      items: timeline.map((item) => ({ userId: item.userId, createdAt: item.createdAt, storyId: item.storyId })),
      send: (keys) => db.entities.timelineEntry.delete(keys).go(),
      keyOf: (key) => `${key.createdAt}#${key.storyId}`,
      what: 'timeline entries',
    }),
  ]);
}
