import type { BoardKind, BoardPage, BoardScreen, PublicationDetail, RankedPublication, Topic } from '@shared/schemas/ranking';
import { topicDisplayName } from '@shared/topic-names';
import { BOARD_NAMES } from '../lib/board-names';

const DAY_MS = 86_400_000;
export const NOW = Date.parse('2026-11-21T12:00:00.000Z');

/** A publication as the API returns it; rank n gets fewer followers than rank n-1. */
export function makePublication(rank: number, overrides: Partial<RankedPublication> = {}): RankedPublication {
  const followers = overrides.followers ?? Math.max(0, 300_000 - rank * 97);
  const gained = overrides.gained30d ?? 120 - rank;
  const start = followers - gained;
  const slug = overrides.slug ?? `publication-${rank}`;
  return {
    rank,
    slug,
    name: `Publication ${rank}`,
    url: `https://${slug}.example.com/`,
    imageUrl: null,
    topics: ['technology'],
    followersKnown: true,
    followers,
    followers7dAgo: followers - Math.round(gained / 4),
    followers30dAgo: start,
    gained30d: gained,
    growthPct30d: start > 0 ? Math.round((gained / start) * 10_000) / 100 : null,
    latestPostAt: new Date(NOW - 3 * DAY_MS).toISOString(),
    isActive: true,
    sparkline: Array.from({ length: 30 }, (_, day) => Math.round(start + (gained * day) / 29)),
    ...overrides,
  };
}

/** A publication read from a plain feed, as the API returns it: no follower count, so its figures are 0 and empty. */
export function makeFeedOnlyPublication(rank: number, overrides: Partial<RankedPublication> = {}): RankedPublication {
  return makePublication(rank, {
    followersKnown: false,
    followers: 0,
    followers7dAgo: 0,
    followers30dAgo: 0,
    gained30d: 0,
    growthPct30d: null,
    sparkline: [],
    ...overrides,
  });
}

export function makeTopic(tag: string, overrides: Partial<Topic> = {}): Topic {
  return { tag, name: topicDisplayName(tag), publicationCount: 120, activeCount: 48, totalFollowers: 1_855_188, ...overrides };
}

export const POPULAR_TOPICS = ['technology', 'startups', 'programming', 'data-science'].map((tag) => makeTopic(tag));

interface PageOptions {
  kind?: BoardKind;
  activeOnly?: boolean;
  topic?: string | null;
  from?: number;
  limit?: number;
  total?: number;
}

/** One page of a board of `total` ranked publications. */
export function makeBoardPage({
  kind = 'followers',
  activeOnly = false,
  topic = null,
  from = 0,
  limit = 50,
  total = 1500,
}: PageOptions = {}): BoardPage {
  const count = Math.max(0, Math.min(limit, total - from));
  return {
    board: { kind, activeOnly, topic },
    items: Array.from({ length: count }, (_, index) => makePublication(from + index + 1)),
    pageInfo: { from, limit, page: Math.floor(from / limit) + 1, total, sortOrder: 'desc', hasMore: from + limit < total },
    generatedAt: new Date(NOW - 5 * 60_000).toISOString(),
  };
}

export function makeBoardScreen(page: BoardPage, topic: Topic | null = null): BoardScreen {
  return {
    seo: {
      title: `${BOARD_NAMES[page.board.kind]} publications · TopPubs`,
      description: `${page.pageInfo.total} publications ranked.`,
      keywords: ['publications'],
      imageUrl: '/og/toppubs-1500.png',
    },
    page,
    topic,
    popularTopics: POPULAR_TOPICS,
  };
}

/** A publication page's answer: ranked on the overall, active and UX boards, 90 days of history. */
export function makePublicationDetail(
  overrides: Partial<PublicationDetail['publication']> = {},
  source: PublicationDetail['source'] = {
    platform: 'medium',
    url: 'https://medium.com/ux-collective',
    status: 'active',
    lastCollectedAt: new Date(NOW - 3 * 3600 * 1000).toISOString(),
  },
): PublicationDetail {
  const days = Array.from({ length: 90 }, (_, index) => new Date(NOW - (89 - index) * DAY_MS).toISOString().slice(0, 10));
  const {
    rank: _rank,
    sparkline: _sparkline,
    ...standing
  } = makePublication(12, {
    slug: 'ux-collective',
    name: 'UX Collective',
    url: 'https://uxdesign.cc/',
    topics: ['ux', 'design'],
  });
  const boards: PublicationDetail['boards'] = [
    {
      boardId: 'followers.all',
      board: { kind: 'followers', activeOnly: false, topic: null },
      topicName: null,
      rank: 12,
      total: 17_000,
    },
    {
      boardId: 'growth.all',
      board: { kind: 'growth', activeOnly: false, topic: null },
      topicName: null,
      rank: 40,
      total: 17_000,
    },
    {
      boardId: 'followers.all.topic.ux',
      board: { kind: 'followers', activeOnly: false, topic: 'ux' },
      topicName: 'UX',
      rank: 2,
      total: 310,
    },
  ];
  return {
    publication: {
      ...standing,
      description: 'Curated stories on user experience, usability and product design.',
      feedUrl: 'https://uxdesign.cc/feed',
      firstSeenAt: days[0]!,
      createdAt: '2026-08-24T00:00:00.000Z',
      updatedAt: '2026-11-21T00:00:00.000Z',
      ranks: { followers: 12, growth: 40, activity: 85 },
      ...overrides,
    },
    boards,
    history: days.map((day, index) => ({ day, followers: 290_000 + index * 100 })),
    // Climbing from #30 to #12 overall; on the UX board only for the last 10 days.
    rankHistory: days.map((day, index) => ({
      day,
      ranks: {
        'followers.all': Math.max(12, 30 - Math.floor(index / 4)),
        'growth.all': 40,
        ...(index >= 80 ? { 'followers.all.topic.ux': 2 } : {}),
      },
    })),
    source,
    // Ranked in two archived months: overall and in UX in October, in UX only in September.
    archiveMonths: [
      {
        month: '2026-10',
        placements: [
          { topic: null, board: 'followers', rank: 14 },
          { topic: 'ux', board: 'followers', rank: 2 },
        ],
      },
      { month: '2026-09', placements: [{ topic: 'ux', board: 'growth', rank: 5 }] },
    ],
    seo: { title: 'UX Collective · TopPubs', description: 'UX Collective has 291,200 followers.', keywords: [], imageUrl: '' },
  };
}

/**
 * The page of a publication read from a plain feed: no follower count, so no follower history,
 * and ranked on the activity boards only (#7 of them all, #3 of its UX ones).
 */
export function makeFeedOnlyPublicationDetail(): PublicationDetail {
  const {
    rank: _rank,
    sparkline: _sparkline,
    ...standing
  } = makeFeedOnlyPublication(7, {
    slug: 'pulse-kitchen',
    name: 'Pulse Kitchen',
    url: 'https://pulse-kitchen.example/',
    topics: ['ux'],
  });
  const days = Array.from({ length: 10 }, (_, index) => new Date(NOW - (9 - index) * DAY_MS).toISOString().slice(0, 10));
  return {
    publication: {
      ...standing,
      description: 'Recipes and notes from a small test kitchen.',
      feedUrl: 'https://pulse-kitchen.example/feed.xml',
      firstSeenAt: days[0]!,
      createdAt: '2026-11-11T00:00:00.000Z',
      updatedAt: '2026-11-21T00:00:00.000Z',
      ranks: { followers: null, growth: null, activity: 7 },
    },
    boards: [
      {
        boardId: 'activity.all',
        board: { kind: 'activity', activeOnly: false, topic: null },
        topicName: null,
        rank: 7,
        total: 17_400,
      },
      {
        boardId: 'activity.all.topic.ux',
        board: { kind: 'activity', activeOnly: false, topic: 'ux' },
        topicName: 'UX',
        rank: 3,
        total: 320,
      },
    ],
    history: [],
    rankHistory: days.map((day) => ({ day, ranks: { 'activity.all': 7, 'activity.all.topic.ux': 3 } })),
    source: {
      platform: 'feed',
      url: 'https://pulse-kitchen.example/feed.xml',
      status: 'active',
      lastCollectedAt: new Date(NOW - 2 * 3600 * 1000).toISOString(),
    },
    archiveMonths: [],
    seo: {
      title: 'Pulse Kitchen · TopPubs',
      description: 'Pulse Kitchen publishes a feed without a follower count.',
      keywords: [],
      imageUrl: '',
    },
  };
}
