import * as z from 'zod';
import { activeFlag, pageInfoSchema, pagingShape, seoSchema } from './common';

const TOPIC_TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TOPIC_TAG_RULE = 'Topics are lower-case words joined by dashes';

export const topicTagSchema = z.string().min(1).max(60).regex(TOPIC_TAG, TOPIC_TAG_RULE);

/** A board's topic filter: tags are lower-case, so ?topic=Technology asks for technology. */
const topicFilterSchema = z.string().trim().toLowerCase().min(1).max(60).regex(TOPIC_TAG, TOPIC_TAG_RULE);

export const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/, 'Slugs are lower-case letters, digits and single - _ .');

/** One row of a ranked board, everything a list needs without another read. */
export const rankedPublicationSchema = z.object({
  rank: z.number(),
  slug: z.string(),
  name: z.string(),
  url: z.string(),
  imageUrl: z.string().nullable(),
  topics: z.array(z.string()),
  followers: z.number(),
  followers7dAgo: z.number(),
  followers30dAgo: z.number(),
  /** Followers gained over the trailing 30 days (or since first seen, if younger). */
  gained30d: z.number(),
  /** gained30d as a percentage of the starting count; null when it started from zero. */
  growthPct30d: z.number().nullable(),
  latestPostAt: z.string().nullable(),
  isActive: z.boolean(),
  /** Daily follower counts, oldest first, for a sparkline. */
  sparkline: z.array(z.number()),
});
export type RankedPublication = z.infer<typeof rankedPublicationSchema>;

export const boardKindSchema = z.enum(['followers', 'growth']);
export type BoardKind = z.infer<typeof boardKindSchema>;

export const boardSchema = z.object({
  kind: boardKindSchema,
  activeOnly: z.boolean(),
  topic: z.string().nullable(),
});
export type Board = z.infer<typeof boardSchema>;

export const boardPageSchema = z.object({
  board: boardSchema,
  items: z.array(rankedPublicationSchema),
  pageInfo: pageInfoSchema,
  generatedAt: z.string(),
});
export type BoardPage = z.infer<typeof boardPageSchema>;

export const topicSchema = z.object({
  tag: z.string(),
  name: z.string(),
  publicationCount: z.number(),
  activeCount: z.number(),
  totalFollowers: z.number(),
});
export type Topic = z.infer<typeof topicSchema>;

/** One of a topic's most followed publications, as much as a topic card shows of it. */
export const topicLeaderSchema = z.object({
  slug: z.string(),
  name: z.string(),
  followers: z.number(),
  imageUrl: z.string().nullable(),
});
export type TopicLeader = z.infer<typeof topicLeaderSchema>;

/** A topic on /topics: its counts and the publications that lead it, most followed first. */
export const topicCardSchema = topicSchema.extend({ leaders: z.array(topicLeaderSchema) });
export type TopicCard = z.infer<typeof topicCardSchema>;

export const boardQuerySchema = z.object({ ...pagingShape, active: activeFlag, topic: topicFilterSchema.optional() }).strict();

export const topicsPageQuerySchema = z.object({ ...pagingShape }).strict();

export const boardScreenSchema = z.object({
  seo: seoSchema,
  page: boardPageSchema,
  topic: topicSchema.nullable(),
  popularTopics: z.array(topicSchema),
});
export type BoardScreen = z.infer<typeof boardScreenSchema>;

export const topicsPageSchema = z.object({
  items: z.array(topicCardSchema),
  pageInfo: pageInfoSchema,
  generatedAt: z.string(),
});

export const topicsScreenSchema = z.object({
  seo: seoSchema,
  topics: topicsPageSchema,
});

export const topicListSchema = z.object({
  items: z.array(topicSchema),
  generatedAt: z.string(),
});

export const searchQuerySchema = z
  .object({
    q: z.string().trim().min(1, 'Type something to search for').max(100, 'Searches are at most 100 characters'),
    from: pagingShape.from,
    page: pagingShape.page,
    limit: pagingShape.limit,
    /** Only publications that posted in the last 30 days. */
    active: activeFlag,
    /** Only publications of this topic; an unknown topic matches nothing. */
    topic: topicTagSchema.optional(),
  })
  .strict();

export const searchResultSchema = z.object({
  query: z.string(),
  items: z.array(rankedPublicationSchema),
  /** Every match, across all pages. */
  total: z.number(),
  pageInfo: pageInfoSchema,
  generatedAt: z.string(),
});

export const publicationBoardRankSchema = z.object({
  /** The board's key in rankHistory. */
  boardId: z.string(),
  board: boardSchema,
  /** The topic's display name, for topic boards. */
  topicName: z.string().nullable(),
  rank: z.number().int().min(1),
  /** Publications on the board. */
  total: z.number().int().min(1),
});
export type PublicationBoardRank = z.infer<typeof publicationBoardRankSchema>;

export const publicationDetailSchema = z.object({
  publication: rankedPublicationSchema.omit({ rank: true, sparkline: true }).extend({
    description: z.string(),
    feedUrl: z.string().nullable(),
    firstSeenAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    ranks: z.object({ followers: z.number().nullable(), growth: z.number().nullable() }),
  }),
  /** Its rank now on every board it is on: overall, active only, and each of its topics. */
  boards: z.array(publicationBoardRankSchema),
  /** Daily follower counts of the last 90 days, oldest first; days without an observation are left out. */
  history: z.array(z.object({ day: z.string(), followers: z.number() })),
  /** Daily ranks of the last 90 days, oldest first: boardId ('followers.all', 'growth.active.topic.ux', ...) -> rank. */
  rankHistory: z.array(z.object({ day: z.string(), ranks: z.record(z.string(), z.number()) })),
  seo: seoSchema,
});
export type PublicationDetail = z.infer<typeof publicationDetailSchema>;

const isoDate = z.iso.datetime({ offset: true, message: 'Must be an ISO 8601 date-time' });

/** One row of an ingestion batch; checked row by row so good rows are kept. */
export const publicationSnapshotSchema = z
  .object({
    slug: slugSchema,
    name: z.string().trim().min(1).max(200),
    url: z.url({ protocol: /^https?$/, message: 'Must be an http(s) URL' }).max(2048),
    followers: z.number().int().min(0).max(1_000_000_000),
    latestPostAt: isoDate.nullable().optional(),
    topics: z.array(topicTagSchema).max(10).default([]),
    observedAt: isoDate,
    description: z.string().max(1000).optional(),
    imageUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional(),
    feedUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional(),
  })
  .strict();
export type PublicationSnapshot = z.infer<typeof publicationSnapshotSchema>;

export const MAX_SNAPSHOTS_PER_BATCH = 500;

export const ingestBodySchema = z
  .object({
    snapshots: z
      .array(z.unknown())
      .min(1, 'Send at least one snapshot')
      .max(MAX_SNAPSHOTS_PER_BATCH, `Send at most ${MAX_SNAPSHOTS_PER_BATCH} snapshots per batch`),
  })
  .strict();

export const ingestResultSchema = z.object({
  stored: z.number(),
  rejected: z.number(),
  results: z.array(
    z.object({
      index: z.number(),
      slug: z.string().nullable(),
      status: z.enum(['created', 'updated', 'unchanged', 'rejected']),
      errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    }),
  ),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

export const publicationFollowParamsSchema = z
  .object({ slug: slugSchema, status: z.enum(['on', 'off'], { message: "Status is 'on' (follow) or 'off' (unfollow)" }) })
  .strict();

export const publicationFollowStateSchema = z.object({
  slug: z.string(),
  following: z.boolean(),
  /** People following the publication on the site. */
  followerCount: z.number().int().min(0),
});
export type PublicationFollowState = z.infer<typeof publicationFollowStateSchema>;

/** A followed publication as a board row shows it, with its rank on both overall boards. */
export const followedPublicationSchema = rankedPublicationSchema.omit({ rank: true }).extend({
  ranks: z.object({ followers: z.number().nullable(), growth: z.number().nullable() }),
  followedAt: z.string(),
});
export type FollowedPublication = z.infer<typeof followedPublicationSchema>;

export const followedPublicationsSchema = z.object({
  /** Newest follow first. */
  items: z.array(followedPublicationSchema),
  generatedAt: z.string(),
});
