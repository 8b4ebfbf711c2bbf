/**
 * The rules of story comments, checked by the API and shown by the comment form alike.
 */

/** A comment's Markdown, once trimmed: at least one character, at most this many. */
export const COMMENT_MAX_LENGTH = 10_000;
/** How long after posting its author may still edit a comment. */
export const COMMENT_EDIT_WINDOW_MINUTES = 10;
/** Replies nest this deep at most (0 is a comment on the story): a reply deeper than that is refused. */
export const COMMENT_MAX_DEPTH = 8;
/** Comments a page of a story's comments holds. */
export const COMMENTS_PAGE_SIZE = 50;
/** What a deleted comment that still has replies shows instead of its author and text. */
export const DELETED_COMMENT_TEXT = '[deleted]';
/** What a comment a superuser removed shows. */
export const REMOVED_COMMENT_TEXT = '[removed]';

/** When a comment posted at `createdAt` stops being editable. */
export function commentEditableUntil(createdAt: string): Date {
  return new Date(Date.parse(createdAt) + COMMENT_EDIT_WINDOW_MINUTES * 60_000);
}

/**
 * A comment's report id (a report's objectId, and what the moderation page splits to remove
 * it): the story id, a dot, the comment id. Story ids never hold a dot.
 */
export function commentReportId(storyId: string, commentId: string): string {
  return `${storyId}.${commentId}`;
}

/** The story and comment ids a comment's report id names, or null when it names none. */
export function parseCommentReportId(objectId: string): { storyId: string; commentId: string } | null {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(objectId);
  return match ? { storyId: match[1] as string, commentId: match[2] as string } : null;
}
