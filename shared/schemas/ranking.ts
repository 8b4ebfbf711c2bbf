import * as z from '../zod';
import { activeFlag, pageInfoSchema, pagingShape, seoSchema } from './common';

const TOPIC_TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TOPIC_TAG_RULE = 'Topics are lower-case words joined by dashes';

export const topicTagSchema = z.string().check(z.minLength(1), z.maxLength(60), z.regex(TOPIC_TAG, TOPIC_TAG_RULE));

/** A board's topic filter: tags are lower-case, so ?topic=Technology asks for technology. */
export const topicFilterSchema = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.minLength(1), z.maxLength(60), z.regex(TOPIC_TAG, TOPIC_TAG_RULE));

export const slugSchema = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(100),
    z.regex(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/, 'Slugs are lower-case letters, digits and single - _ .'),
  );

/** One row of a ranked board, everything a list needs without another read. */
export const rankedPublicationSchema = z.strictObject({
  rank: z.number(),
  slug: z.string(),
  name: z.string(),
  url: z.string(),
  imageUrl: z.nullable(z.string()),
  topics: z.array(z.string()),
  /**
   * False for a publication whose source does not say how many people follow it (a plain RSS or
   * Atom feed): its follower figures are then 0 and mean nothing, and it is ranked on the
   * activity boards only.
   */
  followersKnown: z.boolean(),
  followers: z.number(),
  followers7dAgo: z.number(),
  followers30dAgo: z.number(),
  /** Followers gained over the trailing 30 days (or since first seen, if younger). */
  gained30d: z.number(),
  /** gained30d as a percentage of the starting count; null when it started from zero. */
  growthPct30d: z.nullable(z.number()),
  latestPostAt: z.nullable(z.string()),
  isActive: z.boolean(),
  /** Daily follower counts, oldest first, for a sparkline. */
  sparkline: z.array(z.number()),
});
export type RankedPublication = z.infer<typeof rankedPublicationSchema>;

/**
 * Most followed; fastest growing (followers gained over 30 days); recently active (newest post
 * first), the only board of a publication whose followers are not known.
 */
export const boardKindSchema = z.enum(['followers', 'growth', 'activity']);
export type BoardKind = z.infer<typeof boardKindSchema>;

export const boardSchema = z.strictObject({
  kind: boardKindSchema,
  activeOnly: z.boolean(),
  topic: z.nullable(z.string()),
});
export type Board = z.infer<typeof boardSchema>;

export const boardPageSchema = z.strictObject({
  board: boardSchema,
  items: z.array(rankedPublicationSchema),
  pageInfo: pageInfoSchema,
  generatedAt: z.string(),
});
export type BoardPage = z.infer<typeof boardPageSchema>;

export const topicSchema = z.strictObject({
  tag: z.string(),
  name: z.string(),
  publicationCount: z.number(),
  activeCount: z.number(),
  totalFollowers: z.number(),
});
export type Topic = z.infer<typeof topicSchema>;

/** One of a topic's most followed publications, as much as a topic card shows of it. */
export const topicLeaderSchema = z.strictObject({
  slug: z.string(),
  name: z.string(),
  followers: z.number(),
  imageUrl: z.nullable(z.string()),
});
export type TopicLeader = z.infer<typeof topicLeaderSchema>;

/** A topic on /topics: its counts and the publications that lead it, most followed first. */
export const topicCardSchema = z.extend(topicSchema, { leaders: z.array(topicLeaderSchema) });
export type TopicCard = z.infer<typeof topicCardSchema>;

export const boardQuerySchema = z.strictObject({ ...pagingShape, active: activeFlag, topic: z.optional(topicFilterSchema) });

export const topicsPageQuerySchema = z.strictObject({ ...pagingShape });

export const boardScreenSchema = z.strictObject({
  seo: seoSchema,
  page: boardPageSchema,
  topic: z.nullable(topicSchema),
  popularTopics: z.array(topicSchema),
});
export type BoardScreen = z.infer<typeof boardScreenSchema>;

export const topicsPageSchema = z.strictObject({
  items: z.array(topicCardSchema),
  pageInfo: pageInfoSchema,
  generatedAt: z.string(),
});

export const topicsScreenSchema = z.strictObject({
  seo: seoSchema,
  topics: topicsPageSchema,
});

export const topicListSchema = z.strictObject({
  items: z.array(topicSchema),
  generatedAt: z.string(),
});

export const searchQuerySchema = z.strictObject({
  q: z
    .string()
    .check(z.trim(), z.minLength(1, 'Type something to search for'), z.maxLength(100, 'Searches are at most 100 characters')),
  from: pagingShape.from,
  page: pagingShape.page,
  limit: pagingShape.limit,
  /** Only publications that posted in the last 30 days. */
  active: activeFlag,
  /** Only publications of this topic; an unknown topic matches nothing. */
  topic: z.optional(topicTagSchema),
});

export const searchResultSchema = z.strictObject({
  query: z.string(),
  items: z.array(rankedPublicationSchema),
  /** Every match, across all pages. */
  total: z.number(),
  pageInfo: pageInfoSchema,
  generatedAt: z.string(),
});

export const publicationBoardRankSchema = z.strictObject({
  /** The board's key in rankHistory. */
  boardId: z.string(),
  board: boardSchema,
  /** The topic's display name, for topic boards. */
  topicName: z.nullable(z.string()),
  rank: z.int().check(z.minimum(1)),
  /** Publications on the board. */
  total: z.int().check(z.minimum(1)),
});
export type PublicationBoardRank = z.infer<typeof publicationBoardRankSchema>;

/** Where the collector reads publications from. */
export const SOURCE_PLATFORMS = ['medium', 'wordpress.com', 'feed'] as const;
export type SourcePlatform = (typeof SOURCE_PLATFORMS)[number];

/**
 * Where the collector is at with a source: collected fine; failing (since its first failure);
 * flagged for a person after a week of failures; gone after a week of 404 or 410 answers,
 * which takes its publication off the boards and keeps its history.
 */
export const SOURCE_STATUSES = ['active', 'failing', 'flagged', 'gone'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** Where a publication's numbers come from, and when they were last read there. */
export const publicationSourceSchema = z.strictObject({
  platform: z.enum(SOURCE_PLATFORMS),
  /** The address the collector reads. */
  url: z.string(),
  status: z.enum(SOURCE_STATUSES),
  lastCollectedAt: z.nullable(z.string()),
});
export type PublicationSource = z.infer<typeof publicationSourceSchema>;

/** The three boards of a month's archive, in the order the page shows them. */
export const ARCHIVE_BOARD_KINDS = ['followers', 'growth', 'activity'] as const;
export const archiveBoardKindSchema = z.enum(ARCHIVE_BOARD_KINDS);
export type ArchiveBoardKind = z.infer<typeof archiveBoardKindSchema>;

/** A publication's places in one archived month: what its page links to. */
export const publicationArchiveMonthSchema = z.strictObject({
  month: z.string(),
  placements: z.array(
    z.strictObject({
      /** null for the board of every publication. */
      topic: z.nullable(z.string()),
      board: archiveBoardKindSchema,
      rank: z.number(),
    }),
  ),
});
export type PublicationArchiveMonth = z.infer<typeof publicationArchiveMonthSchema>;

export const publicationDetailSchema = z.strictObject({
  publication: z.extend(z.omit(rankedPublicationSchema, { rank: true, sparkline: true }), {
    description: z.string(),
    feedUrl: z.nullable(z.string()),
    firstSeenAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    ranks: z.strictObject({
      followers: z.nullable(z.number()),
      growth: z.nullable(z.number()),
      /** Only for a publication ranked on activity alone (its followers not known); null otherwise. */
      activity: z.nullable(z.number()),
    }),
  }),
  /**
   * Its rank now on every board it is on: overall, active only, and each of its topics. The
   * activity boards are listed only for a publication ranked on activity alone.
   */
  boards: z.array(publicationBoardRankSchema),
  /** Daily follower counts of the last 90 days, oldest first; days without an observation are left out. */
  history: z.array(z.strictObject({ day: z.string(), followers: z.number() })),
  /** Daily ranks of the last 90 days, oldest first: boardId ('followers.all', 'growth.active.topic.ux', ...) -> rank. */
  rankHistory: z.array(z.strictObject({ day: z.string(), ranks: z.record(z.string(), z.number()) })),
  /** The collector's source; null for a publication whose numbers come through the ingestion API. */
  source: z.nullable(publicationSourceSchema),
  /** The archived months it made a board in (/archive/{year}/{month}), newest first, with its places. */
  archiveMonths: z.array(publicationArchiveMonthSchema),
  seo: seoSchema,
});
export type PublicationDetail = z.infer<typeof publicationDetailSchema>;

const isoDate = z.iso.datetime({ offset: true, message: 'Must be an ISO 8601 date-time' });

/** One row of an ingestion batch; checked row by row so good rows are kept. */
export const publicationSnapshotSchema = z.strictObject({
  slug: slugSchema,
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  url: z.url({ protocol: /^https?$/, message: 'Must be an http(s) URL' }).check(z.maxLength(2048)),
  /** Null when the source does not count followers (a plain feed): ranked on the activity boards only. */
  followers: z.nullable(z.int().check(z.minimum(0), z.maximum(1_000_000_000))),
  latestPostAt: z.optional(z.nullable(isoDate)),
  topics: z._default(z.array(topicTagSchema).check(z.maxLength(10)), []),
  observedAt: isoDate,
  description: z.optional(z.string().check(z.maxLength(1000))),
  imageUrl: z.optional(z.nullable(z.url({ protocol: /^https?$/ }).check(z.maxLength(2048)))),
  feedUrl: z.optional(z.nullable(z.url({ protocol: /^https?$/ }).check(z.maxLength(2048)))),
});
export type PublicationSnapshot = z.infer<typeof publicationSnapshotSchema>;

export const MAX_SNAPSHOTS_PER_BATCH = 500;

export const ingestBodySchema = z.strictObject({
  snapshots: z
    .array(z.unknown())
    .check(
      z.minLength(1, 'Send at least one snapshot'),
      z.maxLength(MAX_SNAPSHOTS_PER_BATCH, `Send at most ${MAX_SNAPSHOTS_PER_BATCH} snapshots per batch`),
    ),
});

export const ingestResultSchema = z.strictObject({
  stored: z.number(),
  rejected: z.number(),
  results: z.array(
    z.strictObject({
      index: z.number(),
      slug: z.nullable(z.string()),
      status: z.enum(['created', 'updated', 'unchanged', 'rejected']),
      errors: z.optional(z.array(z.strictObject({ field: z.string(), message: z.string() }))),
    }),
  ),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

export const publicationFollowParamsSchema = z.strictObject({
  slug: slugSchema,
  status: z.enum(['on', 'off'], { message: "Status is 'on' (follow) or 'off' (unfollow)" }),
});

export const publicationFollowStateSchema = z.strictObject({
  slug: z.string(),
  following: z.boolean(),
  /** People following the publication on the site. */
  followerCount: z.int().check(z.minimum(0)),
});
export type PublicationFollowState = z.infer<typeof publicationFollowStateSchema>;

/** A followed publication as a board row shows it, with its rank on both overall boards. */
export const followedPublicationSchema = z.extend(z.omit(rankedPublicationSchema, { rank: true }), {
  ranks: z.strictObject({ followers: z.nullable(z.number()), growth: z.nullable(z.number()) }),
  followedAt: z.string(),
});
export type FollowedPublication = z.infer<typeof followedPublicationSchema>;

export const followedPublicationsSchema = z.strictObject({
  /** Newest follow first. */
  items: z.array(followedPublicationSchema),
  generatedAt: z.string(),
});
