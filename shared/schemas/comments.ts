import * as z from '../zod';
import { formatCount } from '../format-count';
import { COMMENT_MAX_LENGTH } from '../stories/comment-rules';
import { cursorQueryShape } from './common';
import { storyIdParamsSchema, storyPersonSchema } from './stories';

const commentId = z.string().check(z.regex(/^[A-Za-z0-9_-]{6,40}$/, 'Not a comment id'));

export const commentParamsSchema = z.extend(storyIdParamsSchema, { commentId });

/** A comment's Markdown: trimmed, 1 to 10,000 characters. */
export const commentBodyTextSchema = z
  .string({ message: 'Write the comment' })
  .check(
    z.trim(),
    z.minLength(1, 'Write something first: the comment is empty'),
    z.maxLength(COMMENT_MAX_LENGTH, `A comment holds at most ${formatCount(COMMENT_MAX_LENGTH)} characters`),
  );

export const addCommentBodySchema = z.strictObject({
  body: commentBodyTextSchema,
  /** The comment this replies to; absent for a comment on the story. */
  parentId: z.optional(commentId),
});

export const editCommentBodySchema = z.strictObject({ body: commentBodyTextSchema });

export const reportCommentBodySchema = z.strictObject({
  reason: z.enum(['spam', 'abuse', 'impersonation', 'copyright', 'other']),
  details: z.optional(z.string().check(z.trim(), z.maxLength(1000))),
});

export const commentsQuerySchema = z.strictObject({ ...cursorQueryShape });

/**
 * How a comment shows: 'visible'; 'deleted' by its author and 'hidden' (by someone the reader
 * blocked), both only while replies hang under it, with no author or text; 'removed' by a
 * superuser, with no author or text.
 */
export const COMMENT_VIEW_STATES = ['visible', 'deleted', 'hidden', 'removed'] as const;

export const commentSchema = z.strictObject({
  id: z.string(),
  storyId: z.string(),
  /** The comment this replies to; null for a comment on the story. */
  parentId: z.nullable(z.string()),
  /** 0 for a comment on the story, 1 for a reply to one, and so on. */
  depth: z.int().check(z.minimum(0)),
  state: z.enum(COMMENT_VIEW_STATES),
  /** Null unless visible (and when the author's account is gone). */
  author: z.nullable(storyPersonSchema),
  /** The Markdown as written (for the author's edit form); null unless visible. */
  body: z.nullable(z.string()),
  /** The body rendered by shared/markdown.ts; for the other states, their placeholder ("[deleted]"), escaped. */
  html: z.string(),
  createdAt: z.string(),
  editedAt: z.nullable(z.string()),
  /** Replies directly under it. */
  replyCount: z.int().check(z.minimum(0)),
  /** For the caller's own visible comment: until when they may edit it (null once past, and for anyone else). */
  editableUntil: z.nullable(z.string()),
});
export type Comment = z.infer<typeof commentSchema>;

export const commentAnswerSchema = z.strictObject({
  comment: commentSchema,
  /** The story's comment count after the change. */
  commentCount: z.int().check(z.minimum(0)),
});

/** A delete's answer: the placeholder left, or null when the comment went altogether. */
export const deletedCommentAnswerSchema = z.strictObject({
  comment: z.nullable(commentSchema),
  commentCount: z.int().check(z.minimum(0)),
});

export const commentPageSchema = z.strictObject({
  /** Threads in reading order: each comment followed by its replies, oldest first at each level. */
  items: z.array(commentSchema),
  nextCursor: z.nullable(z.string()),
  /** The comments the story shows (deleted and removed ones not counted). */
  commentCount: z.int().check(z.minimum(0)),
});
