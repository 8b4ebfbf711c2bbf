import * as z from '../zod';
import { normalSiteHost } from '../stories/site-host';
import { cursorQueryShape } from './common';

export const shareAlertSchema = z.object({ title: z.string(), text: z.string() });

/** A missing url is answered like a malformed one: the same INVALID_URL alert, not a schema error. */
export const urlCheckQuerySchema = z.object({ url: z.optional(z.string()) });

export const urlCheckResultSchema = z.strictObject({
  ok: z.literal(true),
  /** The url as it would be stored: lower-case host, no fragment or tracking parameters. */
  url: z.string(),
});

/** The 400 every story route answers for a url the sharing rules refuse. */
export const invalidUrlErrorSchema = z.object({
  code: z.literal('INVALID_URL'),
  message: z.literal('Invalid url'),
  alert: shareAlertSchema,
});

export const shareStoryBodySchema = z.strictObject({ url: z.optional(z.string().check(z.maxLength(4_096))) });

/** Who shared a story, as its card shows them. */
export const storyPersonSchema = z.strictObject({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  imageUrl: z.nullable(z.string()),
});

/** The caller's relation to a story (SPEC 3): false for every flag when nobody is signed in. */
export const currentUserRelationSchema = z.strictObject({
  didRedirect: z.boolean(),
  isSharer: z.boolean(),
  didUpvote: z.boolean(),
});

/** Where a story is in the editorial review. Others than its sharer and superusers see only 'accepted' (else 'none'). */
export const REVIEW_STATES = ['none', 'submitted', 'accepted', 'rejected'] as const;

export const storyReviewSchema = z.strictObject({
  state: z.enum(REVIEW_STATES),
  submittedAt: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
});

export const storySchema = z.strictObject({
  id: z.string(),
  url: z.string(),
  /** The url duplicates are found by: the page's canonical link when it declared an acceptable one. */
  canonicalUrl: z.string(),
  title: z.nullable(z.string()),
  description: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  siteName: z.nullable(z.string()),
  author: z.nullable(z.string()),
  publishedAt: z.nullable(z.string()),
  /** 'url-only' when the page could not be read when it was shared; fetchProblem says why. */
  source: z.enum(['page', 'url-only']),
  /** A public reason ('The page could not be reached', …), never the fetch's own error. */
  fetchProblem: z.nullable(z.string()),
  sharer: z.nullable(storyPersonSchema),
  /** The user who says they wrote it, with their profile; null when nobody has claimed it. */
  claimedAuthor: z.nullable(storyPersonSchema),
  review: storyReviewSchema,
  likeCount: z.int().check(z.minimum(0)),
  /** Comments shown (deleted and removed ones not counted). */
  commentCount: z.int().check(z.minimum(0)),
  createdAt: z.string(),
  currentUserRelation: currentUserRelationSchema,
});
export type Story = z.infer<typeof storySchema>;

export const sharedStorySchema = z.strictObject({
  story: storySchema,
  /** The page was already shared in the last 30 days: this is that story, not a new one. */
  duplicate: z.boolean(),
});

/** Story ids: at least 6 characters of the url-safe 64-letter alphabet. */
export const storyIdParamsSchema = z.strictObject({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{6,32}$/, 'Not a story id')) });

/** `on` likes the story, `off` takes the like back; repeating either changes nothing. */
export const LIKE_STATUSES = ['on', 'off'] as const;

export const likeParamsSchema = z.extend(storyIdParamsSchema, {
  status: z.enum(LIKE_STATUSES, { message: "Use 'on' or 'off'" }),
});

export const storyAnswerSchema = z.strictObject({ story: storySchema });

/** `on` claims (or submits), `off` withdraws; repeating either changes nothing. */
export const TOGGLE_STATUSES = ['on', 'off'] as const;

export const storyToggleParamsSchema = z.extend(storyIdParamsSchema, {
  status: z.enum(TOGGLE_STATUSES, { message: "Use 'on' or 'off'" }),
});

export const REVIEW_DECISIONS = ['accept', 'reject'] as const;

export const reviewDecisionParamsSchema = z.extend(storyIdParamsSchema, {
  decision: z.enum(REVIEW_DECISIONS, { message: "Use 'accept' or 'reject'" }),
});

export const reviewQueueQuerySchema = z.strictObject({ ...cursorQueryShape });

/** A page of stories: a feed or the review queue. */
export const storyPageSchema = z.strictObject({
  items: z.array(storySchema),
  nextCursor: z.nullable(z.string()),
});

/** `on` follows the user, `off` stops following; repeating either changes nothing. */
export const FOLLOW_STATUSES = ['on', 'off'] as const;

/** A user id in a path: ids ignore case, so it is lower-cased as stored. */
const pathUserId = z.pipe(
  z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  z.transform((id) => id.toLowerCase()),
);

export const followParamsSchema = z.strictObject({
  userId: pathUserId,
  status: z.enum(FOLLOW_STATUSES, { message: "Use 'on' or 'off'" }),
});

export const followStateSchema = z.strictObject({
  userId: z.string(),
  following: z.boolean(),
  followerCount: z.int().check(z.minimum(0)),
  followingCount: z.int().check(z.minimum(0)),
});

/** At most this many ids per following-ids call: one BatchGetItem. */
export const MAX_FOLLOWING_IDS = 100;

/** `userIds` is a JSON array of ids, as the web client sends arrays in a query. */
export const followingIdsQuerySchema = z.strictObject({
  userIds: z.pipe(
    z.optional(z.string()),
    z.transform((raw, context) => {
      if (raw === undefined || raw.trim() === '') return [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        context.issues.push({ code: 'custom', message: 'Send userIds as a JSON array of ids', input: raw });
        return z.NEVER;
      }
      if (!Array.isArray(parsed) || !parsed.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 100)) {
        context.issues.push({ code: 'custom', message: 'Send userIds as a JSON array of ids', input: raw });
        return z.NEVER;
      }
      if (parsed.length > MAX_FOLLOWING_IDS) {
        context.issues.push({ code: 'custom', message: `At most ${MAX_FOLLOWING_IDS} ids at a time`, input: raw });
        return z.NEVER;
      }
      return [...new Set((parsed as string[]).map((id) => id.trim().toLowerCase()))];
    }),
  ),
});

export const followingIdsSchema = z.strictObject({ ids: z.array(z.string()) });
export type FollowState = z.infer<typeof followStateSchema>;

export const feedQuerySchema = z.strictObject({ ...cursorQueryShape });

export const userFeedParamsSchema = z.strictObject({ userId: pathUserId });

/** A site page's orders: newest first, or hottest first (the hot feed's score over the site's recent stories). */
export const SITE_SORTS = ['new', 'hot'] as const;
export type SiteSort = (typeof SITE_SORTS)[number];

/** A site's host in a path, normalised as stories are counted: `WWW.Example.com` is `example.com`. */
export const siteParamsSchema = z.strictObject({
  host: z.pipe(
    z.string().check(z.maxLength(260, 'That is not a site name (such as example.com)')),
    z.transform((raw, context) => {
      const host = normalSiteHost(raw);
      if (host === undefined) {
        context.issues.push({ code: 'custom', message: 'That is not a site name (such as example.com)', input: raw });
        return z.NEVER;
      }
      return host;
    }),
  ),
});

export const siteFeedQuerySchema = z.strictObject({
  sort: z.optional(z.enum(SITE_SORTS, { message: "Use 'new' or 'hot'" })),
  ...cursorQueryShape,
});

/** A page of one site's stories, with the site's host and how many stories were shared from it in all. */
export const siteFeedSchema = z.strictObject({
  site: z.strictObject({ host: z.string(), storyCount: z.int().check(z.minimum(0)) }),
  items: z.array(storySchema),
  nextCursor: z.nullable(z.string()),
});
export type SiteFeed = z.infer<typeof siteFeedSchema>;
