import { describe, expect, it } from 'vitest';
import {
  COLLECTION_DAILY_BUDGET_PER_HOST,
  COLLECTION_MIN_INTERVAL_MS,
  type PlannedSource,
  planCollection,
  SOURCES_PER_BATCH,
  sourcesPerHostPerDay,
} from '../../functions/ranking/lib/sources/collection-plan';

const NOW = new Date('2026-11-26T09:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3600 * 1000).toISOString();

const medium = (slug: string, lastAttemptAt?: string, status: PlannedSource['status'] = 'active'): PlannedSource => ({
  canonicalId: `medium:${slug}`,
  platform: 'medium',
  sourceUrl: `https://medium.com/${slug}`,
  status,
  ...(lastAttemptAt ? { lastAttemptAt } : {}),
});

describe('planning the daily collection', () => {
  it("batches due sources by the host their adapter asks, so one host's batches can be read one after another", () => {
    // Prepare
    const sources: PlannedSource[] = [
      medium('a'),
      medium('b', hoursAgo(30)),
      { canonicalId: 'wpcom:1', platform: 'wordpress.com', sourceUrl: 'https://cooking.wordpress.com', status: 'active' },
      { canonicalId: 'wpcom:2', platform: 'wordpress.com', sourceUrl: 'https://running.blog', status: 'failing' },
      { canonicalId: 'https://blog.example/feed', platform: 'feed', sourceUrl: 'https://blog.example/feed', status: 'active' },
    ];

    // Act
    const plan = planCollection(sources, NOW);

    // Assess
    expect(plan.batches).toEqual([
      { host: 'blog.example', canonicalIds: ['https://blog.example/feed'] },
      { host: 'medium.com', canonicalIds: ['medium:a', 'medium:b'] },
      { host: 'public-api.wordpress.com', canonicalIds: ['wpcom:1', 'wpcom:2'] },
    ]);
    expect(plan).toMatchObject({ due: 5, postponed: 0 });
  });

  it('leaves sources attempted in the last 20 hours, and looks at a gone one weekly', () => {
    // Prepare
    const sources = [
      medium('fresh', hoursAgo(19)),
      medium('yesterday', hoursAgo(21)),
      medium('gone-recently', hoursAgo(30), 'gone'),
      medium('gone-a-week', hoursAgo(24 * 7), 'gone'),
    ];

    // Act
    const plan = planCollection(sources, NOW);

    // Assess
    expect(plan.batches.flatMap((batch) => batch.canonicalIds)).toEqual(['medium:gone-a-week', 'medium:yesterday']);
  });

  it('refreshes 20,000 Medium publications daily within the host budget, in batches of 50', () => {
    // Prepare
    const sources = Array.from({ length: 20_000 }, (_, index) => medium(`publication-${index}`, hoursAgo(24)));

    // Act
    const plan = planCollection(sources, NOW);

    // Assess
    expect(plan.batches).toHaveLength(20_000 / SOURCES_PER_BATCH);
    expect(plan.postponed).toBe(0);
    const requests = 20_000 * 2;
    expect(requests).toBeLessThanOrEqual(COLLECTION_DAILY_BUDGET_PER_HOST);
    // At the least interval between two requests, the day's requests end within the day.
    expect(requests * COLLECTION_MIN_INTERVAL_MS).toBeLessThan(24 * 3600 * 1000);
  });

  it('postpones what a host cannot answer in a day, keeping the longest-waiting sources first', () => {
    // Prepare
    const capacity = sourcesPerHostPerDay(2);
    const sources = [
      ...Array.from({ length: capacity }, (_, index) => medium(`recent-${index}`, hoursAgo(22))),
      medium('never-collected'),
      medium('waiting-longest', hoursAgo(72)),
    ];

    // Act
    const plan = planCollection(sources, NOW);
    const planned = plan.batches.flatMap((batch) => batch.canonicalIds);

    // Assess
    expect(planned).toHaveLength(capacity);
    expect(planned.slice(0, 2)).toEqual(['medium:never-collected', 'medium:waiting-longest']);
    expect(plan.postponed).toBe(2);
    expect(plan.hosts).toEqual({ 'medium.com': capacity + 2 });
  });
});
