import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { storeHotList } from '../../functions/stories/lib/feeds';
import { DEMO_STORIES, hasStories, seedSocial } from '../../infra/local/seed/seed-social';
import { routes } from '../../shared/routes';
import { apiSuite } from '../support/api-suite';
import { expectOk } from '../support/api-client';

const suite = apiSuite();

describe('the demo people and stories', () => {
  it('fills every feed, with counts that match the items', async () => {
    // Prepare
    const db = getDb();
    expect(await hasStories(db)).toBe(false);

    // Act
    const seeded = await seedSocial(db, new Date());
    await storeHotList(db, new Date());

    // Assess: the feeds a visitor and a demo person see
    expect(seeded.stories).toBe(DEMO_STORIES);
    expect(await hasStories(db)).toBe(true);
    const [fresh, hot] = await Promise.all([suite.api.call(routes.readNewFeed), suite.api.call(routes.readHotFeed)]);
    expectOk(fresh);
    expectOk(hot);
    expect(fresh.body.items).toHaveLength(20);
    expect(hot.body.items).toHaveLength(20);
    const reader = await suite.api.signIn('demo', { email: 'ana.lima@demo.toppubs.example' });
    const following = await suite.api.call(routes.readFollowingFeed, { as: reader });
    expectOk(following);
    expect(following.body.items.length).toBeGreaterThan(0);

    // Assess: the counts the transactions would have kept
    const { data: follows } = await db.entities.follow.scan.go({ pages: 'all' });
    const { data: users } = await db.entities.user.scan.go({ pages: 'all' });
    for (const user of users.filter((candidate) => candidate.email?.endsWith('@demo.toppubs.example'))) {
      expect(user.followerCount).toBe(follows.filter((follow) => follow.followedId === user.userId).length);
      expect(user.followingCount).toBe(follows.filter((follow) => follow.followerId === user.userId).length);
    }
    const { data: stories } = await db.entities.story.scan.go({ pages: 'all' });
    const { data: relations } = await db.entities.storyRelation.scan.go({ pages: 'all' });
    expect(relations).toHaveLength(seeded.likes);
    for (const story of stories) {
      expect(story.likeCount).toBe(relations.filter((relation) => relation.storyId === story.storyId && relation.likedAt).length);
      expect(relations.some((relation) => relation.storyId === story.storyId && relation.userId === story.sharerId)).toBe(false);
    }
    const fromShipNotes = stories.filter((story) => new URL(story.canonicalUrl).hostname === 'shipnotes.example');
    const site = await suite.api.call(routes.readSiteFeed, { params: { host: 'shipnotes.example' } });
    expectOk(site);
    expect(site.body.site.storyCount).toBe(fromShipNotes.length);
    expect(site.body.items).toHaveLength(20);
    expect(site.body.items.map((story) => story.createdAt)).toEqual(
      fromShipNotes
        .map((story) => story.createdAt)
        .sort()
        .reverse()
        .slice(0, 20),
    );
  }, 60_000);
});
