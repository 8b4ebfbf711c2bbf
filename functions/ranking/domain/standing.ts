import { ACTIVE_WINDOW_DAYS, GROWTH_WINDOW_DAYS } from '../../../shared/constants';
import type { RankedPublication } from '../../../shared/schemas/ranking';
import { addDays, type Day, daysBetween } from './days';
import { countOnOrBefore, firstObserved, NOT_OBSERVED, type RecentCounts } from './recent-counts';

/** What the ranking needs of a stored publication. */
export interface PublicationFacts {
  slug: string;
  name: string;
  url: string;
  imageUrl?: string | undefined;
  topics?: string[] | undefined;
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

function sparkline(window: RecentCounts, today: Day): number[] {
  const points: number[] = [];
  let carried: number | undefined;
  for (let offset = SPARKLINE_DAYS - 1; offset >= 0; offset -= 1) {
    const day = addDays(today, -offset);
    const index = window.counts.length - 1 + daysBetween(window.endDay, day);
    const count = index >= 0 && index < window.counts.length ? (window.counts[index] as number) : NOT_OBSERVED;
    if (count !== NOT_OBSERVED) carried = count;
    else if (carried === undefined) carried = countOnOrBefore(window, day);
    if (carried !== undefined) points.push(carried);
  }
  return points;
}

/**
 * Followers gained over the trailing window; a publication first seen inside the window is
 * measured from its first count. The percentage is null when the starting count was zero.
 */
export function computeStanding(publication: PublicationFacts, today: Day): Standing {
  const window: RecentCounts = { endDay: publication.recentEndDay, counts: publication.recentCounts };
  const followers = countOnOrBefore(window, today) ?? publication.followers;
  const first = firstObserved(window);
  const startOf = (daysAgo: number) => countOnOrBefore(window, addDays(today, -daysAgo)) ?? first?.count ?? followers;
  const followers30dAgo = startOf(GROWTH_WINDOW_DAYS);
  const followers7dAgo = startOf(7);
  const gained30d = followers - followers30dAgo;
  return {
    slug: publication.slug,
    name: publication.name,
    url: publication.url,
    imageUrl: publication.imageUrl ?? null,
    topics: publication.topics ?? [],
    followers,
    followers7dAgo,
    followers30dAgo,
    gained30d,
    growthPct30d: followers30dAgo > 0 ? Math.round((gained30d / followers30dAgo) * 10_000) / 100 : null,
    latestPostAt: publication.latestPostAt ?? null,
    isActive: isActive(publication.latestPostAt, today),
    sparkline: sparkline(window, today),
  };
}

export function byFollowers(a: Standing, b: Standing): number {
  return b.followers - a.followers || b.gained30d - a.gained30d || (a.slug < b.slug ? -1 : 1);
}

/** Fastest growing: most followers gained, ties broken by percentage gained. */
export function byGrowth(a: Standing, b: Standing): number {
  return (
    b.gained30d - a.gained30d ||
    (b.growthPct30d ?? Number.NEGATIVE_INFINITY) - (a.growthPct30d ?? Number.NEGATIVE_INFINITY) ||
    b.followers - a.followers ||
    (a.slug < b.slug ? -1 : 1)
  );
}
