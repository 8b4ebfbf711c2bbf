import { ACTIVE_WINDOW_DAYS, GROWTH_WINDOW_DAYS } from '../../../../shared/constants';
import type { RankedPublication } from '../../../../shared/schemas/ranking';
import { type Day, daysBetween } from './days';
import { NOT_OBSERVED } from './recent-counts';

/** What the ranking needs of a stored publication. */
export interface PublicationFacts {
  slug: string;
  name: string;
  url: string;
  imageUrl?: string | undefined;
  topics?: string[] | undefined;
  /** False when the source counts no followers (a plain feed); missing means true. */
  followersKnown?: boolean | undefined;
  followers: number;
  latestPostAt?: string | undefined;
  recentEndDay: Day;
  recentCounts: number[];
}

/** A publication's standing on a given day: every figure a board row shows, without its rank. */
export type Standing = Omit<RankedPublication, 'rank'>;

const SPARKLINE_DAYS = 30;

export function isActive(latestPostAt: string | undefined, today: Day): boolean {
  if (!latestPostAt) return false;
  return daysBetween(latestPostAt.slice(0, 10), today) <= ACTIVE_WINDOW_DAYS;
}

/** The latest observed count at or before `index` of the window, if any. */
function countAtOrBefore(counts: number[], index: number): number | undefined {
  for (let cursor = Math.min(index, counts.length - 1); cursor >= 0; cursor -= 1) {
    const count = counts[cursor] as number;
    if (count !== NOT_OBSERVED) return count;
  }
  return undefined;
}

function firstObservedCount(counts: number[]): number | undefined {
  return counts.find((count) => count !== NOT_OBSERVED);
}

/** Daily counts for the last SPARKLINE_DAYS days, gaps carried over; days before the first count are left out. */
function sparkline(counts: number[], todayIndex: number): number[] {
  const points: number[] = [];
  let carried = countAtOrBefore(counts, todayIndex - SPARKLINE_DAYS);
  for (let index = todayIndex - SPARKLINE_DAYS + 1; index <= todayIndex; index += 1) {
    const count = index >= 0 && index < counts.length ? (counts[index] as number) : NOT_OBSERVED;
    if (count !== NOT_OBSERVED) carried = count;
    if (carried !== undefined) points.push(carried);
  }
  return points;
}

/**
 * Followers gained over the trailing window; a publication first seen inside the window is
 * measured from its first count. The percentage is null when the starting count was zero.
 * Days are turned into window indexes once: the job calls this 17,000 times per run.
 */
export function computeStanding(publication: PublicationFacts, today: Day): Standing {
  const counts = publication.recentCounts;
  const todayIndex = counts.length - 1 + daysBetween(publication.recentEndDay, today);
  const followers = countAtOrBefore(counts, todayIndex) ?? publication.followers;
  const first = firstObservedCount(counts);
  const startOf = (daysAgo: number) => countAtOrBefore(counts, todayIndex - daysAgo) ?? first ?? followers;
  const followers30dAgo = startOf(GROWTH_WINDOW_DAYS);
  const followers7dAgo = startOf(7);
  const gained30d = followers - followers30dAgo;
  return {
    slug: publication.slug,
    name: publication.name,
    url: publication.url,
    imageUrl: publication.imageUrl ?? null,
    topics: publication.topics ?? [],
    followersKnown: publication.followersKnown !== false,
    followers,
    followers7dAgo,
    followers30dAgo,
    gained30d,
    growthPct30d: followers30dAgo > 0 ? Math.round((gained30d / followers30dAgo) * 10_000) / 100 : null,
    latestPostAt: publication.latestPostAt ?? null,
    isActive: isActive(publication.latestPostAt, today),
    sparkline: sparkline(counts, todayIndex),
  };
}

/** What the boards order by: a Standing, or a cursor over the run's columns (standing-columns.ts). */
export type SortKeys = Pick<Standing, 'slug' | 'followers' | 'gained30d' | 'growthPct30d' | 'latestPostAt'>;

export function byFollowers(a: SortKeys, b: SortKeys): number {
  return b.followers - a.followers || b.gained30d - a.gained30d || (a.slug < b.slug ? -1 : 1);
}

/**
 * Recently active: the newest post first, those that never posted last; ties by followers, a
 * publication whose followers are not known after those that count some.
 */
export function byActivity(a: SortKeys, b: SortKeys): number {
  const newest = (a.latestPostAt ?? '') < (b.latestPostAt ?? '') ? 1 : (a.latestPostAt ?? '') > (b.latestPostAt ?? '') ? -1 : 0;
  return newest || b.followers - a.followers || (a.slug < b.slug ? -1 : 1);
}

/** Fastest growing: most followers gained, ties broken by percentage gained. */
export function byGrowth(a: SortKeys, b: SortKeys): number {
  return (
    b.gained30d - a.gained30d ||
    (b.growthPct30d ?? Number.NEGATIVE_INFINITY) - (a.growthPct30d ?? Number.NEGATIVE_INFINITY) ||
    b.followers - a.followers ||
    (a.slug < b.slug ? -1 : 1)
  );
}
