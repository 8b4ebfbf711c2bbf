import type { Standing } from '../../functions/ranking/lib/domain/standing';

/** A publication's standing with flat, unremarkable figures; tests override what they are about. */
export function standingFixture(slug: string, overrides: Partial<Standing> = {}): Standing {
  return {
    slug,
    name: slug.toUpperCase(),
    url: `https://${slug}.example.com/`,
    imageUrl: null,
    topics: [],
    followersKnown: true,
    followers: 1000,
    followers7dAgo: 1000,
    followers30dAgo: 1000,
    gained30d: 0,
    growthPct30d: 0,
    latestPostAt: null,
    isActive: true,
    sparkline: [],
    ...overrides,
  };
}
