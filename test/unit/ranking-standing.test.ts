import { describe, expect, it } from 'vitest';
import { ACTIVE_WINDOW_DAYS, GROWTH_WINDOW_DAYS, RECENT_HISTORY_DAYS } from '../../shared/constants';
import { addDays } from '../../functions/ranking/lib/domain/days';
import { NOT_OBSERVED } from '../../functions/ranking/lib/domain/recent-counts';
import { standingFixture } from '../support/fixtures';
import {
  byFollowers,
  byGrowth,
  computeStanding,
  isActive,
  type PublicationFacts,
  type Standing,
} from '../../functions/ranking/lib/domain/standing';

const TODAY = '2024-06-30';

function facts(counts: number[], overrides: Partial<PublicationFacts> = {}): PublicationFacts {
  return {
    slug: 'the-pub',
    name: 'The Pub',
    url: 'https://medium.com/the-pub',
    followers: counts.at(-1) ?? 0,
    recentEndDay: TODAY,
    recentCounts: counts,
    ...overrides,
  };
}

const standing = (overrides: Partial<Standing>) => standingFixture('x', { isActive: false, ...overrides });

describe('computeStanding', () => {
  it(`measures growth over the trailing ${GROWTH_WINDOW_DAYS} days`, () => {
    // Prepare: a full window, +10 followers a day, ending today.
    const counts = Array.from({ length: RECENT_HISTORY_DAYS }, (_, day) => 1000 + 10 * day);

    // Act
    const result = computeStanding(facts(counts), TODAY);

    // Assess
    const startIndex = RECENT_HISTORY_DAYS - 1 - GROWTH_WINDOW_DAYS;
    expect(result.followers).toBe(1000 + 10 * (RECENT_HISTORY_DAYS - 1));
    expect(result.followers30dAgo).toBe(1000 + 10 * startIndex);
    expect(result.gained30d).toBe(10 * GROWTH_WINDOW_DAYS);
    expect(result.growthPct30d).toBe(Math.round(((10 * GROWTH_WINDOW_DAYS) / (1000 + 10 * startIndex)) * 10_000) / 100);
    expect(result.followers7dAgo).toBe(result.followers - 70);
  });

  it('measures a publication younger than the window from its first count', () => {
    // Prepare: first seen four days ago.
    const counts = [200, 210, 220, 230, 250];

    // Act
    const result = computeStanding(facts(counts), TODAY);

    // Assess
    expect(result.followers30dAgo).toBe(200);
    expect(result.gained30d).toBe(50);
    expect(result.growthPct30d).toBe(25);
  });

  it('uses the count before a gap when the start day was not observed', () => {
    // Prepare: 30 days ago falls in a gap; the count before it is 500.
    const counts = Array.from({ length: RECENT_HISTORY_DAYS }, () => 900);
    const startIndex = RECENT_HISTORY_DAYS - 1 - GROWTH_WINDOW_DAYS;
    counts[startIndex - 1] = 500;
    counts[startIndex] = NOT_OBSERVED;
    for (let index = 0; index < startIndex - 1; index += 1) counts[index] = 400;

    // Act
    const result = computeStanding(facts(counts), TODAY);

    // Assess
    expect(result.followers30dAgo).toBe(500);
    expect(result.gained30d).toBe(400);
  });

  it('has no percentage when it started from zero followers', () => {
    // Act
    const result = computeStanding(facts([0, 10, 40]), TODAY);

    // Assess
    expect(result.gained30d).toBe(40);
    expect(result.growthPct30d).toBeNull();
  });

  it('reports a loss as negative growth', () => {
    // Act
    const result = computeStanding(facts([200, 150]), TODAY);

    // Assess
    expect(result.gained30d).toBe(-50);
    expect(result.growthPct30d).toBe(-25);
  });

  it('carries the row fields a board shows', () => {
    // Act
    const result = computeStanding(
      facts([5], {
        imageUrl: 'https://img.example.com/a.png',
        topics: ['data-science'],
        latestPostAt: '2024-06-29T10:00:00.000Z',
      }),
      TODAY,
    );

    // Assess
    expect(result).toMatchObject({
      slug: 'the-pub',
      name: 'The Pub',
      url: 'https://medium.com/the-pub',
      imageUrl: 'https://img.example.com/a.png',
      topics: ['data-science'],
      latestPostAt: '2024-06-29T10:00:00.000Z',
      isActive: true,
    });
    expect(computeStanding(facts([5]), TODAY)).toMatchObject({ imageUrl: null, topics: [], latestPostAt: null, isActive: false });
  });

  it('has a sparkline of 30 daily points, carrying the last count over gaps', () => {
    // Prepare
    const counts = Array.from({ length: RECENT_HISTORY_DAYS }, (_, day) => 100 + day);
    counts[RECENT_HISTORY_DAYS - 3] = NOT_OBSERVED;
    counts[RECENT_HISTORY_DAYS - 2] = NOT_OBSERVED;

    // Act
    const { sparkline } = computeStanding(facts(counts), TODAY);

    // Assess
    expect(sparkline).toHaveLength(30);
    expect(sparkline[0]).toBe(100 + RECENT_HISTORY_DAYS - 30);
    const beforeGap = 100 + RECENT_HISTORY_DAYS - 4;
    expect(sparkline.slice(-4)).toEqual([beforeGap, beforeGap, beforeGap, 100 + RECENT_HISTORY_DAYS - 1]);
  });

  it('carries the count from before the sparkline into a gap at its start', () => {
    // Prepare: the first sparkline day is a gap; the day before it has a count.
    const counts = Array.from({ length: RECENT_HISTORY_DAYS }, () => 300);
    counts[RECENT_HISTORY_DAYS - 31] = 250;
    counts[RECENT_HISTORY_DAYS - 30] = NOT_OBSERVED;

    // Act
    const { sparkline } = computeStanding(facts(counts), TODAY);

    // Assess
    expect(sparkline).toHaveLength(30);
    expect(sparkline[0]).toBe(250);
    expect(sparkline[1]).toBe(300);
  });

  it('has fewer sparkline points for a publication first seen recently', () => {
    // Act
    const { sparkline } = computeStanding(facts([10, NOT_OBSERVED, 30]), TODAY);

    // Assess
    expect(sparkline).toEqual([10, 10, 30]);
  });
});

describe('isActive', () => {
  it(`counts a post exactly ${ACTIVE_WINDOW_DAYS} days old as active`, () => {
    expect(isActive(`${addDays(TODAY, -ACTIVE_WINDOW_DAYS)}T08:00:00.000Z`, TODAY)).toBe(true);
  });

  it(`counts a post ${ACTIVE_WINDOW_DAYS + 1} days old as dormant`, () => {
    expect(isActive(`${addDays(TODAY, -ACTIVE_WINDOW_DAYS - 1)}T23:59:00.000Z`, TODAY)).toBe(false);
  });

  it('counts a publication that never posted as dormant', () => {
    expect(isActive(undefined, TODAY)).toBe(false);
  });

  it('counts a post from today as active', () => {
    expect(isActive(`${TODAY}T00:00:00.000Z`, TODAY)).toBe(true);
  });
});

describe('board orders', () => {
  it('byGrowth puts the most followers gained first', () => {
    // Prepare
    const rows = [
      standing({ slug: 'a', gained30d: 10 }),
      standing({ slug: 'b', gained30d: 300 }),
      standing({ slug: 'c', gained30d: 50 }),
    ];

    // Act
    const order = rows.sort(byGrowth).map((row) => row.slug);

    // Assess
    expect(order).toEqual(['b', 'c', 'a']);
  });

  it('byGrowth breaks a tie in followers gained by percentage, then by followers', () => {
    // Prepare
    const rows = [
      standing({ slug: 'big', gained30d: 100, growthPct30d: 1, followers: 10_000 }),
      standing({ slug: 'small', gained30d: 100, growthPct30d: 50, followers: 300 }),
      standing({ slug: 'new', gained30d: 100, growthPct30d: null, followers: 100 }),
      standing({ slug: 'big-twin', gained30d: 100, growthPct30d: 1, followers: 20_000 }),
    ];

    // Act
    const order = rows.sort(byGrowth).map((row) => row.slug);

    // Assess: a null percentage (started from zero) sorts after any known percentage.
    expect(order).toEqual(['small', 'big-twin', 'big', 'new']);
  });

  it('byFollowers orders by followers, most first, ties by growth then slug', () => {
    // Prepare
    const rows = [
      standing({ slug: 'c', followers: 500, gained30d: 1 }),
      standing({ slug: 'a', followers: 9000 }),
      standing({ slug: 'b', followers: 500, gained30d: 20 }),
      standing({ slug: 'd', followers: 500, gained30d: 1 }),
    ];

    // Act
    const order = rows.sort(byFollowers).map((row) => row.slug);

    // Assess
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });
});
