import { getBatch } from '../../lib/db/batches';
import type { StoryItem } from '../../lib/db/entities/story';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';

/**
 * A viral story's likes (docs/operations.md, "Hot items"): 200 a second, each a transaction
 * writing the reader's relation and the count. On the story's own item that is 2 write units a
 * like for the count alone under its partition key, which also holds every relation (2 more),
 * so 800 of the partition's 1,000 units a second; and concurrent transactions on one item cancel
 * each other (TransactionConflict), so most would retry. From LIKE_SHARD_FROM likes on, or once a
 * like collided, a story's likes are counted in LIKE_SHARDS shards instead, each a partition key
 * of its own, one chosen at random per like: 20 likes a second each at that rate.
 */
export const LIKE_SHARDS = 10;
/**
 * Stories with fewer likes keep the count on their own item (feeds read no shards for them):
 * a story reaching this many is popular enough that its count's writes are worth spreading.
 */
export const LIKE_SHARD_FROM = 100;

type WriteEntities = Parameters<Parameters<Db['transaction']['write']>[0]>[0];

/**
 * The write that counts one like (`delta` 1) or unlike (-1) of `story`, for the like's
 * transaction: in a random shard once the story is sharded, else on the story, which then also
 * becomes sharded when this like takes it to LIKE_SHARD_FROM.
 */
export function countLikeCommit(entities: WriteEntities, story: StoryItem, delta: 1 | -1) {
  const shards = story.likeShards;
  if (shards !== undefined) {
    return entities.storyLikeShard
      .update({ storyId: story.storyId, shard: Math.floor(Math.random() * shards) })
      .add({ likes: delta })
      .commit();
  }
  const write = entities.story.patch({ storyId: story.storyId }).add({ likeCount: delta });
  return (story.likeCount + delta >= LIKE_SHARD_FROM ? write.set({ likeShards: LIKE_SHARDS }) : write).commit();
}

/** Counts the story's later likes in shards (after a like collided on its item); a no-op when it is already. */
export async function startShardedLikes(db: Db, storyId: string): Promise<void> {
  await db.entities.story
    .patch({ storyId })
    .set({ likeShards: LIKE_SHARDS })
    .where(({ likeShards }, { notExists }) => notExists(likeShards))
    .go({ response: 'none' })
    .catch((error: unknown) => {
      // Already sharded by another like (or the story is gone): nothing to do.
      if (!isConditionalCheckFailed(error)) throw error;
    });
}

/**
 * The stories with their whole like count: for a sharded one, its own count plus its shards',
 * read in one batch for all of them (none for stories that are not sharded, most of them).
 * `consistent` for an answer right after a like, which must show it.
 */
export async function addShardedLikes(
  db: Db,
  stories: readonly StoryItem[],
  options: { consistent?: boolean } = {},
): Promise<StoryItem[]> {
  const keys = stories.flatMap((story) =>
    Array.from({ length: story.likeShards ?? 0 }, (_, shard) => ({ storyId: story.storyId, shard })),
  );
  if (keys.length === 0) return [...stories];
  const shards = await getBatch({
    keys,
    send: async (batch) => {
      const { data, unprocessed } = await db.entities.storyLikeShard.get(batch).go({ consistent: options.consistent ?? false });
      return { data, unprocessed: unprocessed.map((key) => ({ storyId: key.storyId, shard: key.shard })) };
    },
    what: 'like count shards',
  });
  const sharded = new Map<string, number>();
  for (const shard of shards) sharded.set(shard.storyId, (sharded.get(shard.storyId) ?? 0) + shard.likes);
  return stories.map((story) =>
    sharded.has(story.storyId) ? { ...story, likeCount: story.likeCount + (sharded.get(story.storyId) ?? 0) } : story,
  );
}
