import { BOARD_FEEDS, FEED_FORMATS, STORY_FEEDS } from '../feeds';
import * as z from '../zod';
import { usernameSchema } from './account';
import { siteParamsSchema } from './stories';
import { topicTagSchema } from './ranking';

const formatSchema = z.enum(FEED_FORMATS, { message: "Use 'rss' or 'atom'" });

export const storiesFeedParamsSchema = z.strictObject({
  feed: z.enum(STORY_FEEDS, { message: "Use 'hot' or 'new'" }),
  format: formatSchema,
});

export const userStoriesFeedParamsSchema = z.strictObject({ username: usernameSchema, format: formatSchema });

/** A site's host as its page reads it (`www.` and case dropped). */
export const siteStoriesFeedParamsSchema = z.strictObject({ ...siteParamsSchema.shape, format: formatSchema });

export const boardFeedParamsSchema = z.strictObject({
  board: z.enum(BOARD_FEEDS, { message: "Use 'most-followed' or 'fastest-growing'" }),
  format: formatSchema,
});

/** A topic's board instead of the whole site's. */
export const boardFeedQuerySchema = z.strictObject({ topic: z.optional(topicTagSchema) });

/** An RSS 2.0 or Atom 1.0 document. */
export const feedDocumentSchema = z.string();
