import { describe, expect, it } from 'vitest';
import { writeBatch } from '../../functions/lib/db/batches';
import { getDb } from '../../functions/lib/db/service';
import { createSession } from '../../functions/lib/sessions';
import { addShardedLikes, LIKE_SHARD_FROM, LIKE_SHARDS } from '../../functions/stories/lib/story-like-count';
import { routes } from '../../shared/routes';
import { expectOk, type Session } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { storyInTable } from '../support/stories';
import { writeSyntheticPeople } from '../support/synthetic-follows';

const suite = apiSuite();

/** `count` readers who opened `storyId`, written straight to the table (an account, a session, the opened link each). */
async function readersOf(storyId: string, count: number, label: string): Promise<Session[]> {
  const db = getDb();
  const at = new Date().toISOString();
  const userIds = Array.from({ length: count }, (_, index) => `${label}-${storyId}-${index}`);
  await writeSyntheticPeople(db, userIds, at);
  await writeBatch({
    items: userIds.map((userId) => ({ storyId, userId, redirectedAt: at })),
    send: async (items) => db.entities.storyRelation.put(items).go(),
    keyOf: (key) => `${key.storyId}/${key.userId}`,
    what: 'opened links',
  });
  return Promise.all(userIds.map(async (userId) => ({ token: (await createSession(db, userId)).token })));
}

/** The likes stored as relations, and the story's count as the API and the table (shards read together) say it. */
async function countsOf(storyId: string) {
  const db = getDb();
  const { data: relations } = await db.entities.storyRelation.query.byStory({ storyId }).go({ pages: 'all', consistent: true });
  const { data: story } = await db.entities.story.get({ storyId }).go({ consistent: true });
  const [whole] = story ? await addShardedLikes(db, [story], { consistent: true }) : [];
  const answer = await suite.api.call(routes.getStory, { params: { id: storyId } });
  expectOk(answer);
  return {
    liked: relations.filter((relation) => relation.likedAt !== undefined).length,
    stored: whole?.likeCount,
    answered: answer.body.story.likeCount,
    shards: story?.likeShards,
  };
}

describe('a hot story: its likes counted in shards', () => {
  it('ends 50 likes at once on a popular story with the exact count, counted in shards, and 20 unlikes too', async () => {
    // Prepare: a story one like short of being sharded, with likes from before (no relations of theirs here)
    const sharer = { userId: 'hot-story-sharer' };
    const before = LIKE_SHARD_FROM - 1;
    const storyId = await storyInTable(sharer, 'A story going viral', new Date(), { likeCount: before });
    const readers = await readersOf(storyId, 50, 'hot-liker');
    const like = (status: 'on' | 'off', as: Session) => suite.api.call(routes.likeStory, { params: { id: storyId, status }, as });

    // Act: everyone likes at once, then 20 of them unlike at once
    const likes = await Promise.all(readers.map((reader) => like('on', reader)));
    const afterLikes = await countsOf(storyId);
    const unlikes = await Promise.all(readers.slice(0, 20).map((reader) => like('off', reader)));
    const afterUnlikes = await countsOf(storyId);

    // Assess: every call went through, the story is sharded, and each count is exactly the stored likes
    expect(likes.map((answer) => answer.status)).toEqual(readers.map(() => 200));
    expect(unlikes.map((answer) => answer.status)).toEqual(unlikes.map(() => 200));
    expect(afterLikes).toEqual({ liked: 50, stored: before + 50, answered: before + 50, shards: LIKE_SHARDS });
    expect(afterUnlikes).toEqual({ liked: 30, stored: before + 30, answered: before + 30, shards: LIKE_SHARDS });
    const { data: shards } = await getDb()
      .entities.storyLikeShard.get(Array.from({ length: LIKE_SHARDS }, (_, shard) => ({ storyId, shard })))
      .go({ consistent: true });
    // Every unlike came after the story was sharded: at least those were counted in shards, not on the story.
    expect(shards.length).toBeGreaterThan(0);
    const { data: story } = await getDb().entities.story.get({ storyId }).go({ consistent: true });
    expect((story?.likeCount ?? 0) + shards.reduce((sum, shard) => sum + shard.likes, 0)).toBe(before + 30);
    // The like that took the story to LIKE_SHARD_FROM was counted on it (and set its shards).
    expect(story?.likeCount).toBeGreaterThanOrEqual(LIKE_SHARD_FROM);
  }, 60_000);

  it('keeps a quiet story’s count on the story itself, which feeds read without shards', async () => {
    // Prepare
    const storyId = await storyInTable({ userId: 'quiet-story-sharer' }, 'A quiet story');
    const [reader] = await readersOf(storyId, 1, 'quiet-liker');

    // Act
    const answer = await suite.api.call(routes.likeStory, {
      params: { id: storyId, status: 'on' },
      as: reader as Session,
    });

    // Assess
    expectOk(answer);
    expect(answer.body.story.likeCount).toBe(1);
    const { data: story } = await getDb().entities.story.get({ storyId }).go({ consistent: true });
    expect(story).toMatchObject({ likeCount: 1 });
    expect(story?.likeShards).toBeUndefined();
  });
});
