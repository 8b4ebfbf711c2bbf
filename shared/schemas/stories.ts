import * as z from 'zod';

export const shareAlertSchema = z.object({ title: z.string(), text: z.string() });

/** A missing url is answered like a malformed one: the same INVALID_URL alert, not a schema error. */
export const urlCheckQuerySchema = z.object({ url: z.string().optional() });

export const urlCheckResultSchema = z.object({
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

export const shareStoryBodySchema = z.object({ url: z.string().max(4_096).optional() }).strict();

/** Who shared a story, as its card shows them. */
export const storyPersonSchema = z.object({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  imageUrl: z.string().nullable(),
});

/** The caller's relation to a story (SPEC 3): false for every flag when nobody is signed in. */
export const currentUserRelationSchema = z.object({
  didRedirect: z.boolean(),
  isSharer: z.boolean(),
  didUpvote: z.boolean(),
});

export const storySchema = z.object({
  id: z.string(),
  url: z.string(),
  /** The url duplicates are found by: the page's canonical link when it declared an acceptable one. */
  canonicalUrl: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  siteName: z.string().nullable(),
  author: z.string().nullable(),
  publishedAt: z.string().nullable(),
  /** 'url-only' when the page could not be read when it was shared; fetchProblem says why. */
  source: z.enum(['page', 'url-only']),
  fetchProblem: z.string().nullable(),
  sharer: storyPersonSchema.nullable(),
  likeCount: z.number().int().min(0),
  createdAt: z.string(),
  currentUserRelation: currentUserRelationSchema,
});
export type Story = z.infer<typeof storySchema>;

export const sharedStorySchema = z.object({
  story: storySchema,
  /** The page was already shared in the last 30 days: this is that story, not a new one. */
  duplicate: z.boolean(),
});

/** Story ids: at least 6 characters of the url-safe 64-letter alphabet. */
export const storyIdParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{6,32}$/, 'Not a story id') }).strict();

/** `on` likes the story, `off` takes the like back; repeating either changes nothing. */
export const LIKE_STATUSES = ['on', 'off'] as const;

export const likeParamsSchema = storyIdParamsSchema
  .extend({ status: z.enum(LIKE_STATUSES, { message: "Use 'on' or 'off'" }) })
  .strict();

export const storyAnswerSchema = z.object({ story: storySchema });
