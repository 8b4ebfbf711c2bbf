import type { StoryItem } from '../../lib/db/entities/story';
import type { StoryRelationItem } from '../../lib/db/entities/story-relation';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { getBatch } from '../../lib/db/batches';
import { getUser, getUsers } from '../../lib/db/users';
import { Forbidden, NotFound } from '../../lib/errors';
import type { Story } from '../../../shared/schemas/stories';
import { notifiedStory, toStory, type Viewer } from './story-view';
import { type NotificationWrites, prepareNotification } from '../../lib/notifications';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';

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
export async function storyFor(db: Db, story: StoryItem, viewer: Viewer | undefined): Promise<Story> {
  const [sharer, claimedAuthor, relation] = await Promise.all([
    getUser(db, { userId: story.sharerId }),
    story.authorClaimUserId ? getUser(db, { userId: story.authorClaimUserId }) : null,
    readRelation(db, story.storyId, viewer?.userId),
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
 * number (the people named, and the viewer's relations to the stories).
 */
export async function storiesFor(db: Db, stories: readonly StoryItem[], viewer: Viewer | undefined): Promise<Story[]> {
  const [people, relations] = await Promise.all([
    getUsers(db, { userIds: stories.flatMap((story) => [story.sharerId, story.authorClaimUserId ?? []].flat()) }),
    viewer && stories.length > 0
      ? getBatch({
          keys: stories.map((story) => ({ storyId: story.storyId, userId: viewer.userId })),
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
 * whom the sharer has not blocked. The relation's likedAt, the story's count and, for a like,
 * the sharer's notification change in one transaction, each on condition of the others' state,
 * so concurrent calls leave the count equal to the number of likes and a notification exists
 * only for a like that happened. Repeating a call changes nothing. Answers the notification
 * written, if any, for the caller to email.
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
  return retryContendedWrite({ what: 'liking this story' }, async () => {
    const notification = liking
      ? await prepareNotification(db, {
          recipientId: story.sharerId,
          actorId: userId,
          kind: 'story-liked',
          object: notifiedStory(story),
          at: now,
        })
      : null;
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
        entities.story
          .patch({ storyId: story.storyId })
          .add({ likeCount: liking ? 1 : -1 })
          .commit(),
        ...(notification?.commits(entities) ?? []),
      ])
      .go();
    if (!result.canceled) return notification;
    // The like was already in the state asked for: nothing to change.
    if (failedConditions(result).includes(0)) return null;
    // A concurrent transaction on the same story, or another event on the same notification:
    // read again and retry.
    return lostRace(result);
  });
}
