import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicationItem } from '../../functions/lib/db/entities/publication';
import { PUBLICATION_SHARDS } from '../../functions/lib/db/entities/publication';
import { addDays, daysBetween } from '../../functions/ranking/lib/domain/days';
import {
  countOnOrBefore,
  firstObserved,
  NOT_OBSERVED,
  recordCount,
  type RecentCounts,
} from '../../functions/ranking/lib/domain/recent-counts';
import { shardOf } from '../../functions/ranking/lib/domain/shard';
import { describeSeed, feedOnlyShare, generateSeedData, type SeedData } from '../../infra/local/seed/generate-publications';
import { ACTIVE_WINDOW_DAYS, RECENT_HISTORY_DAYS } from '../../shared/constants';
import { publicationSnapshotSchema, slugSchema, topicTagSchema } from '../../shared/schemas/ranking';

const TODAY = '2025-01-20';
const TODAY_MS = Date.parse(`${TODAY}T00:00:00Z`);
const DAY_MS = 86_400_000;

function daysSincePost(publication: PublicationItem): number {
  return publication.latestPostAt ? (TODAY_MS - Date.parse(publication.latestPostAt)) / DAY_MS : Number.POSITIVE_INFINITY;
}

function growth30d(publication: PublicationItem): number {
  return (publication.followers - publication.followers30dAgo) / publication.followers30dAgo;
}

/** Map.groupBy is Node 21+; tests run on Node 20 too. */
function groupBySlug<T extends { slug: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.slug, [...(groups.get(item.slug) ?? []), item]);
  return groups;
}

function windowOf(publication: PublicationItem): RecentCounts {
  return { endDay: publication.recentEndDay, counts: publication.recentCounts };
}

describe('generateSeedData', () => {
  it('gives the same data for the same seed and different data for another seed', () => {
    // Prepare
    const options = { today: TODAY, publications: 400, seed: 11 };

    // Act
    const first = generateSeedData(options);
    const again = generateSeedData(options);
    const other = generateSeedData({ ...options, seed: 12 });

    // Assess
    expect(again).toEqual(first);
    expect(other.publications.map((publication) => publication.slug)).not.toEqual(
      first.publications.map((publication) => publication.slug),
    );
  });

  it('adds publications read from a plain feed without changing the others: no followers, no topics, no history', () => {
    // Prepare
    const options = { today: TODAY, publications: 200, seed: 11 };

    // Act
    const plain = generateSeedData(options);
    const withFeeds = generateSeedData({ ...options, feedOnly: 5 });

    // Assess
    expect(withFeeds.publications.slice(0, 200)).toEqual(plain.publications);
    expect(withFeeds.histories).toEqual(plain.histories);
    const feeds = withFeeds.publications.slice(200);
    expect(feeds).toHaveLength(5);
    expect(new Set(withFeeds.publications.map((publication) => publication.slug)).size).toBe(205);
    for (const feed of feeds) {
      expect(feed).toMatchObject({ followersKnown: false, followers: 0, topics: [], recentCounts: [], recentEndDay: TODAY });
      expect(slugSchema.safeParse(feed.slug).success).toBe(true);
      expect(feed.feedUrl).toMatch(/^https:\/\/[a-z0-9-]+\.example\.com\/feed\.xml$/);
    }
  });

  it('announces the publications asked for and the feed-only ones added on top apart', () => {
    // Prepare
    const feedOnly = feedOnlyShare(1_000);
    const data = generateSeedData({ today: TODAY, publications: 1_000, seed: 11, feedOnly });
    const small = generateSeedData({ today: TODAY, publications: 40, seed: 11, feedOnly: feedOnlyShare(40) });

    // Act
    const line = describeSeed(data, feedOnly);
    const smallLine = describeSeed(small, feedOnlyShare(40));

    // Assess
    expect(feedOnly).toBe(10);
    expect(data.publications).toHaveLength(1_010);
    expect(line).toBe(
      `Seeding 1000 publications with ${data.histories.length} follower histories, and 10 more read from a plain feed (1 in 100, no follower count)...`,
    );
    expect(smallLine).toBe(`Seeding 40 publications with ${small.histories.length} follower histories...`);
  });

  describe('the full 17,000-publication data set', () => {
    let data: SeedData;
    let byFollowers: PublicationItem[];

    beforeAll(() => {
      // Prepare / Act: one generation shared by the checks below, as the local runtime makes it.
      data = generateSeedData({ today: TODAY, seed: 2024 });
      byFollowers = [...data.publications].sort((a, b) => b.followers - a.followers);
    });

    it('has 17,000 publications with unique, valid slugs and example-only URLs', () => {
      // Assess
      const slugs = data.publications.map((publication) => publication.slug);
      expect(slugs).toHaveLength(17_000);
      expect(new Set(slugs).size).toBe(17_000);
      expect(slugs.filter((slug) => !slugSchema.safeParse(slug).success)).toEqual([]);
      for (const publication of data.publications) {
        expect(new URL(publication.url).hostname).toBe(`${publication.slug}.example.com`);
        expect(publication.imageUrl).toBeUndefined();
      }
    });

    it('passes the ingestion schema, so the demo data is data the product could have received', () => {
      // Act
      const rejected = data.publications.filter(
        (publication) =>
          !publicationSnapshotSchema.safeParse({
            slug: publication.slug,
            name: publication.name,
            url: publication.url,
            followers: publication.followers,
            latestPostAt: publication.latestPostAt ?? null,
            topics: publication.topics,
            observedAt: publication.updatedAt,
            description: publication.description,
            feedUrl: publication.feedUrl ?? null,
          }).success,
      );

      // Assess
      expect(rejected).toEqual([]);
    });

    it('uses about 100 topics, popular ones far more than rare ones, 1 to 4 per publication', () => {
      // Prepare
      const uses = new Map<string, number>();
      for (const publication of data.publications) {
        for (const tag of publication.topics ?? []) uses.set(tag, (uses.get(tag) ?? 0) + 1);
      }
      const counts = [...uses.values()].sort((a, b) => b - a);

      // Assess
      expect(data.topics.length).toBeGreaterThanOrEqual(90);
      expect(data.topics.length).toBeLessThanOrEqual(110);
      expect(uses.size).toBe(data.topics.length);
      expect(data.topics.filter((topic) => !topicTagSchema.safeParse(topic.tag).success)).toEqual([]);
      expect(counts[0]).toBeGreaterThan(20 * (counts.at(-1) ?? 0));
      for (const publication of data.publications) {
        const topics = publication.topics ?? [];
        expect(topics.length).toBeGreaterThanOrEqual(1);
        expect(topics.length).toBeLessThanOrEqual(4);
        expect(new Set(topics).size).toBe(topics.length);
      }
    });

    it('has heavy-tailed followers: median in the hundreds, top ones near a million or more', () => {
      // Prepare
      const followers = byFollowers.map((publication) => publication.followers);
      const total = followers.reduce((sum, count) => sum + count, 0);
      const topOnePercent = followers.slice(0, 170).reduce((sum, count) => sum + count, 0);
      const median = followers[8_500] as number;

      // Assess
      expect(median).toBeGreaterThanOrEqual(150);
      expect(median).toBeLessThanOrEqual(800);
      expect(followers[0]).toBeGreaterThanOrEqual(300_000);
      expect(followers[0]).toBeLessThanOrEqual(2_500_000);
      expect(topOnePercent / total).toBeGreaterThan(0.3);
    });

    it('has 30-50% active publications and many dormant giants', () => {
      // Prepare
      const active = data.publications.filter((publication) => daysSincePost(publication) <= ACTIVE_WINDOW_DAYS);
      const dormantTop500 = byFollowers.slice(0, 500).filter((publication) => daysSincePost(publication) > 90);

      // Assess
      expect(active.length / data.publications.length).toBeGreaterThan(0.3);
      expect(active.length / data.publications.length).toBeLessThan(0.5);
      expect(dormantTop500.length).toBeGreaterThanOrEqual(150);
      expect(data.publications.every((publication) => daysSincePost(publication) >= 0)).toBe(true);
    });

    it('has 40-60 fast risers, some of them young, and small typical growth', () => {
      // Prepare: tiny counts jump by whole followers, so only publications with 100+ count.
      const measurable = data.publications.filter((publication) => publication.followers30dAgo >= 100);
      const risers = measurable.filter((publication) => growth30d(publication) >= 0.2);
      const youngRisers = risers.filter((publication) => daysBetween(publication.firstSeenDay, TODAY) < 30);
      const growths = measurable.map(growth30d).sort((a, b) => a - b);

      // Assess
      expect(risers.length).toBeGreaterThanOrEqual(40);
      expect(risers.length).toBeLessThanOrEqual(60);
      expect(risers.some((publication) => growth30d(publication) >= 1)).toBe(true);
      expect(youngRisers.length).toBeGreaterThanOrEqual(5);
      expect(Math.abs(growths[Math.floor(growths.length / 2)] as number)).toBeLessThan(0.05);
    });

    it('has young publications whose history starts on their first-seen day', () => {
      // Prepare
      const young = data.publications.filter((publication) => daysBetween(publication.firstSeenDay, TODAY) < 30);
      const youngSlugs = new Set(young.map((publication) => publication.slug));
      const earliestDay = new Map<string, string>();
      for (const history of data.histories) {
        if (!youngSlugs.has(history.slug)) continue;
        for (const monthDay of Object.keys(history.days as Record<string, number>)) {
          const day = `${history.year}-${monthDay}`;
          const known = earliestDay.get(history.slug);
          if (!known || day < known) earliestDay.set(history.slug, day);
        }
      }

      // Assess
      expect(young.length).toBeGreaterThanOrEqual(100);
      for (const publication of young) {
        expect(earliestDay.get(publication.slug)).toBe(publication.firstSeenDay);
        expect(publication.recentCounts).toHaveLength(daysBetween(publication.firstSeenDay, TODAY) + 1);
      }
    });

    it('keeps followers, followers7dAgo, followers30dAgo and shard consistent with the stored counts', () => {
      // Assess
      for (const publication of data.publications) {
        const window = windowOf(publication);
        const first = firstObserved(window)?.count;
        expect(publication.recentEndDay).toBe(TODAY);
        expect(publication.recentCounts.length).toBeLessThanOrEqual(RECENT_HISTORY_DAYS);
        expect(publication.recentCounts.at(-1)).toBe(publication.followers);
        expect(publication.followers7dAgo).toBe(countOnOrBefore(window, addDays(TODAY, -7)) ?? first);
        expect(publication.followers30dAgo).toBe(countOnOrBefore(window, addDays(TODAY, -30)) ?? first);
        expect(publication.shard).toBe(shardOf(publication.slug));
        expect(publication.shard).toBeLessThan(PUBLICATION_SHARDS);
      }
    });

    it('stores the same daily counts in recentCounts as daily ingestion of the history would have', () => {
      // Prepare: the history of every 50th publication, replayed day by day through recordCount.
      const historiesBySlug = groupBySlug(data.histories);
      const sample = data.publications.filter((_, index) => index % 50 === 0);

      for (const publication of sample) {
        const observations = (historiesBySlug.get(publication.slug) ?? [])
          .flatMap((history) =>
            Object.entries(history.days as Record<string, number>).map(([monthDay, count]) => ({
              day: `${history.year}-${monthDay}`,
              count,
            })),
          )
          .sort((a, b) => a.day.localeCompare(b.day));

        // Act
        let window: RecentCounts | undefined;
        for (const { day, count } of observations) window = recordCount(window, day, count);

        // Assess
        expect(observations[0]?.day).toBe(publication.firstSeenDay);
        expect(window).toEqual(windowOf(publication));
      }
    });

    it('writes one history item per publication per calendar year touched, with gaps only inside the window', () => {
      // Prepare: 90 days back from 2025-01-20 starts in October 2024.
      const years = groupBySlug(data.histories);
      const gaps = data.publications.filter((publication) => publication.recentCounts.includes(NOT_OBSERVED));

      // Assess
      expect(years.size).toBe(17_000);
      const established = data.publications.find((publication) => publication.firstSeenDay === addDays(TODAY, -89));
      expect(
        years
          .get(established?.slug ?? '')
          ?.map((history) => history.year)
          .sort(),
      ).toEqual(['2024', '2025']);
      expect(gaps.length).toBeGreaterThan(0);
      for (const history of data.histories) expect(history.revision).toBe(1);
    });

    it('gives about 30% of publications a feed on their own example host', () => {
      // Prepare
      const withFeed = data.publications.filter((publication) => publication.feedUrl);

      // Assess
      expect(withFeed.length / data.publications.length).toBeGreaterThan(0.25);
      expect(withFeed.length / data.publications.length).toBeLessThan(0.35);
      for (const publication of withFeed) expect(publication.feedUrl).toBe(`https://${publication.slug}.example.com/feed`);
    });
  });
});
