import type { StoryItem } from '../../lib/db/entities/story';
import type { StoryRelationItem } from '../../lib/db/entities/story-relation';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { getBatch } from '../../lib/db/batches';
import { getUser, getUsers } from '../../lib/db/users';
import { Forbidden, NotFound } from '../../lib/errors';
import type { Story } from '../../../shared/schemas/stories';
import { notifiedStory, toStory, type Viewer } from './story-view';
import { type NotificationWrites, recordNotification } from '../../lib/notifications';
import { lostRace, retryContendedWrite, TooBusy } from '../../lib/contended-writes';
import { logger } from '../../lib/logger';
import { addShardedLikes, countLikeCommit, LIKE_SHARDS, startShardedLikes } from './story-like-count';

export async function requireStory(db: Db, storyId: string): Promise<StoryItem> {
  const { data } = await db.entities.story.get({ storyId }).go({ consistent: true });
  if (!data) throw new NotFound(`There is no story with id ${storyId}.`);
  return data;
}

export async function readRelation(db: Db, storyId: string, userId: string | undefined): Promise<StoryRelationItem | undefined> {
  if (!userId) return undefined;
  const { data } = await db.entities.storyRelation.get({ storyId, userId }).go({ consistent: true });
  return data ?? undefined;
}

/** The story as `viewer` (or nobody) sees it: its sharer, claimed author and the viewer's relation to it. */
export async function storyFor(db: Db, item: StoryItem, viewer: Viewer | undefined): Promise<Story> {
  const [[story = item], sharer, claimedAuthor, relation] = await Promise.all([
    addShardedLikes(db, [item], { consistent: true }),
    getUser(db, { userId: item.sharerId }),
    item.authorClaimUserId ? getUser(db, { userId: item.authorClaimUserId }) : null,
    readRelation(db, item.storyId, viewer?.userId),
  ]);
  return toStory(story, { sharer, claimedAuthor }, viewer, {
    didRedirect: relation?.redirectedAt !== undefined || viewer?.userId === story.sharerId,
    didUpvote: relation?.likedAt !== undefined,
  });
}

/** Stories by id in the order asked; unknown ids are left out. One BatchGetItem (retried). */
export async function getStories(db: Db, storyIds: readonly string[]): Promise<StoryItem[]> {
  if (storyIds.length === 0) return [];
  const found = await getBatch({
    keys: [...new Set(storyIds)].map((storyId) => ({ storyId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.story.get(keys).go();
      return { data, unprocessed: unprocessed.map((key) => ({ storyId: key.storyId })) };
    },
    what: 'stories',
  });
  const byId = new Map(found.map((story) => [story.storyId, story]));
  return storyIds.flatMap((storyId) => byId.get(storyId) ?? []);
}

/**
 * Many stories as `viewer` sees them, for a feed or a queue: two batch reads whatever their
 * number (the people named, and the viewer's relations to the stories), and a third for the
 * count shards of any hot story among them (story-like-count.ts).
 */
export async function storiesFor(db: Db, items: readonly StoryItem[], viewer: Viewer | undefined): Promise<Story[]> {
  const [stories, people, relations] = await Promise.all([
    addShardedLikes(db, items),
    getUsers(db, { userIds: items.flatMap((story) => [story.sharerId, story.authorClaimUserId ?? []].flat()) }),
    viewer && items.length > 0
      ? getBatch({
          keys: items.map((story) => ({ storyId: story.storyId, userId: viewer.userId })),
          send: async (keys) => {
            const { data, unprocessed } = await db.entities.storyRelation.get(keys).go();
            return { data, unprocessed: unprocessed.map((key) => ({ storyId: key.storyId, userId: key.userId })) };
          },
          what: 'story relations',
        })
      : Promise.resolve([]),
  ]);
  const person = new Map(people.map((user) => [user.userId, user]));
  const relation = new Map(relations.map((item) => [item.storyId, item]));
  return stories.map((story) =>
    toStory(
      story,
      {
        sharer: person.get(story.sharerId) ?? null,
        claimedAuthor: story.authorClaimUserId ? (person.get(story.authorClaimUserId) ?? null) : null,
      },
      viewer,
      {
        didRedirect: relation.get(story.storyId)?.redirectedAt !== undefined || viewer?.userId === story.sharerId,
        didUpvote: relation.get(story.storyId)?.likedAt !== undefined,
      },
    ),
  );
}

/** Notes that the reader opened the story's link (kept from the first time). */
export async function recordRedirect(db: Db, storyId: string, userId: string, now: Date): Promise<void> {
  await db.entities.storyRelation
    .upsert({ storyId, userId })
    .ifNotExists({ redirectedAt: now.toISOString() })
    .go({ response: 'none' });
}

/**
 * Likes (`on`) or unlikes (`off`) a story for a reader who opened it and is not its sharer, and
 * whom the sharer has not blocked. The relation's likedAt and the story's count (on the story, or
 * in one of its shards once it is hot: story-like-count.ts) change in one transaction, the
 * relation on condition of its state, so concurrent calls leave the count equal to the number of
 * likes. Repeating a call changes nothing. A like that happened then tells the sharer, in a
 * write of its own (recordNotification): on a viral story every like joins the same open notification, and in
 * the like's transaction that one item would make every like collide with every other (docs/operations.md,
 * "Hot items"). Answers the notification written, if any, for the caller to email.
 */
export async function setLike(
  db: Db,
  story: StoryItem,
  userId: string,
  status: 'on' | 'off',
  now: Date,
): Promise<NotificationWrites | null> {
  if (story.sharerId === userId) throw new Forbidden('You cannot like a story you shared.');
  const [relation, { data: block }] = await Promise.all([
    readRelation(db, story.storyId, userId),
    db.entities.block.get({ userId: story.sharerId, blockedUserId: userId }).go(),
  ]);
  if (block) throw new Forbidden('You cannot like this story.');
  if (!relation?.redirectedAt) throw new Forbidden('Open the story before you like it.');

  const liking = status === 'on';
  let counted = story;
  const changed = await retryContendedWrite({ what: 'liking this story' }, async () => {
    const result = await db.transaction
      .write((entities) => [
        liking
          ? entities.storyRelation
              .patch({ storyId: story.storyId, userId })
              .set({ likedAt: now.toISOString() })
              .where(({ redirectedAt, likedAt }, { exists, notExists }) => `${exists(redirectedAt)} AND ${notExists(likedAt)}`)
              .commit()
          : entities.storyRelation
              .patch({ storyId: story.storyId, userId })
              .remove(['likedAt'])
              .where(({ likedAt }, { exists }) => exists(likedAt))
              .commit(),
        countLikeCommit(entities, counted, liking ? 1 : -1),
      ])
      .go();
    if (!result.canceled) return true;
    // The like was already in the state asked for: nothing to change.
    if (failedConditions(result).includes(0)) return false;
    // A concurrent transaction on the same count (TransactionConflict): its later likes go to shards.
    if (counted.likeShards === undefined) {
      await startShardedLikes(db, story.storyId);
      counted = { ...counted, likeShards: LIKE_SHARDS };
    }
    return lostRace(result);
  });
  if (!changed || !liking) return null;
  try {
    return await recordNotification(db, {
      recipientId: story.sharerId,
      actorId: userId,
      kind: 'story-liked',
      object: notifiedStory(story),
      at: now,
    });
  } catch (error) {
    // The like is recorded; only the sharer's notice of it (one more name on an open one) is lost.
    if (!(error instanceof TooBusy)) throw error;
    logger.warn('A like was not added to its notification', { storyId: story.storyId, error });
    return null;
  }
}
