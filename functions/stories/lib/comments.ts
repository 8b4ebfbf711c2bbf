import { randomBytes } from 'node:crypto';
import { escapeHtml, renderMarkdown } from '../../../shared/markdown';
import type { Comment } from '../../../shared/schemas/comments';
import {
  COMMENT_EDIT_WINDOW_MINUTES,
  COMMENT_MAX_DEPTH,
  COMMENTS_PAGE_SIZE,
  commentEditableUntil,
  commentReportId,
  DELETED_COMMENT_TEXT,
  REMOVED_COMMENT_TEXT,
} from '../../../shared/stories/comment-rules';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import { checkedCursor } from '../../lib/db/cursors';
import type { CommentItem } from '../../lib/db/entities/comment';
import type { StoryItem } from '../../lib/db/entities/story';
import type { UserItem } from '../../lib/db/entities/user';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { getUsers } from '../../lib/db/users';
import { Forbidden, Gone, NotFound } from '../../lib/errors';
import { type NotificationEvent, type NotificationWrites, prepareNotification } from '../../lib/notifications';
import { claimLimits, describeWait } from '../../lib/rate-limit';
import { resolveReportsOf } from '../../lib/reports';
import { requireStory } from './story-relations';
import { toPerson, type Viewer } from './story-view';

/** Comments one person may post a minute and a day: a fast typist's pace, not a bot's. */
export const COMMENTS_PER_MINUTE = 5;
export const COMMENTS_PER_DAY = 200;
/** How much of a comment a notification quotes. */
const EXCERPT_LENGTH = 140;

/**
 * A new comment id: the time in base 36 (fixed width, so ids sort by age, and so do the paths
 * made of them), then randomness that keeps ids apart within a millisecond.
 */
export function newCommentId(now: Date): string {
  return now.getTime().toString(36).padStart(9, '0') + randomBytes(6).toString('base64url');
}

/** The first words of a comment, as plain text, for a notification and its mail (which escape it). */
export function commentExcerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text.length <= EXCERPT_LENGTH ? text : `${text.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…`;
}

const gone = (item: Pick<CommentItem, 'state'>) =>
  new Gone(item.state === 'removed' ? 'This comment was removed by a moderator.' : 'This comment was deleted by its author.');

export async function readComment(db: Db, storyId: string, commentId: string): Promise<CommentItem | null> {
  const { data } = await db.entities.comment.get({ storyId, commentId }).go({ consistent: true });
  return data ?? null;
}

async function requireComment(db: Db, storyId: string, commentId: string): Promise<CommentItem> {
  const comment = await readComment(db, storyId, commentId);
  if (!comment) throw new NotFound(`There is no comment ${commentId} on this story.`);
  return comment;
}

/**
 * A comment as `viewer` sees it. Only a visible comment shows its author and text; the others
 * show their placeholder. `hidden` marks one by someone the viewer blocked (listed only for
 * the replies under it).
 */
export function toComment(item: CommentItem, author: UserItem | null, viewer: Viewer | undefined, now: Date, hidden = false): Comment {
  const base = {
    id: item.commentId,
    storyId: item.storyId,
    parentId: item.parentId ?? null,
    depth: item.depth,
    createdAt: item.createdAt,
    replyCount: Math.max(0, item.replyCount),
  };
  if (item.state !== 'visible' || hidden) {
    const state = item.state === 'visible' ? 'hidden' : item.state;
    const text = state === 'removed' ? REMOVED_COMMENT_TEXT : state === 'deleted' ? DELETED_COMMENT_TEXT : '[hidden]';
    return { ...base, state, author: null, body: null, html: `<p>${escapeHtml(text)}</p>`, editedAt: null, editableUntil: null };
  }
  const editableUntil = commentEditableUntil(item.createdAt);
  const own = viewer !== undefined && viewer.userId === item.authorId;
  return {
    ...base,
    state: 'visible',
    author: toPerson(author),
    body: item.body ?? '',
    html: renderMarkdown(item.body ?? ''),
    editedAt: item.editedAt ?? null,
    editableUntil: own && editableUntil > now ? editableUntil.toISOString() : null,
  };
}

/** The people whose comments `viewer` does not see: whom they blocked (one Query of their partition). */
async function blockedBy(db: Db, viewer: Viewer | undefined): Promise<Set<string>> {
  if (!viewer) return new Set();
  const { data } = await db.entities.block.query.byUser({ userId: viewer.userId }).go({ pages: 'all' });
  return new Set(data.map((block) => block.blockedUserId));
}

/**
 * A page of a story's comments in reading order (one Query of the story's comments by path),
 * as `viewer` sees them: comments by people they blocked are left out, or shown as hidden while
 * replies hang under them. 404 for an unknown story.
 */
export async function listComments(
  db: Db,
  options: { storyId: string; viewer: Viewer | undefined; cursor?: string | undefined; now?: Date },
): Promise<{ items: Comment[]; nextCursor: string | null; commentCount: number }> {
  const story = await requireStory(db, options.storyId);
  const query = db.entities.comment.query.byPath({ storyId: options.storyId });
  const cursor = checkedCursor(options.cursor, query, 'gsi1pk');
  const [page, blocked] = await Promise.all([
    query.go({ limit: COMMENTS_PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    blockedBy(db, options.viewer),
  ]);
  const shown = page.data.filter((item) => !(blocked.has(item.authorId) && item.state === 'visible' && item.replyCount <= 0));
  const authors = await getUsers(db, {
    userIds: shown.filter((item) => item.state === 'visible' && !blocked.has(item.authorId)).map((item) => item.authorId),
  });
  const byId = new Map(authors.map((user) => [user.userId, user]));
  const now = options.now ?? new Date();
  return {
    items: shown.map((item) =>
      toComment(item, byId.get(item.authorId) ?? null, options.viewer, now, blocked.has(item.authorId)),
    ),
    nextCursor: page.cursor ?? null,
    commentCount: Math.max(0, story.commentCount ?? 0),
  };
}

/** Whether either person blocked the other: two GetItems. */
async function eitherBlocked(db: Db, one: string, other: string): Promise<boolean> {
  const [{ data: forward }, { data: backward }] = await Promise.all([
    db.entities.block.get({ userId: one, blockedUserId: other }).go(),
    db.entities.block.get({ userId: other, blockedUserId: one }).go(),
  ]);
  return Boolean(forward ?? backward);
}

export interface PostedComment {
  comment: CommentItem;
  commentCount: number;
  /** The notifications written with it, for announceNotification once it is committed. */
  notifications: { writes: NotificationWrites; event: NotificationEvent }[];
}

/**
 * Posts a comment on a story, or a reply to one of its comments. The comment, the story's
 * comment count, the parent's reply count and the notifications of the story's sharer and the
 * parent's author go in one transaction, each on condition of the others' state: the count
 * moves exactly once per comment whatever runs alongside, a reply never lands under a comment
 * deleted or removed meanwhile, and a notification exists exactly when its comment does (its
 * group is the comment, so a retry cannot record it twice). 404 for an unknown story or parent,
 * 410 for a parent deleted or removed, 403 for a reply between people one of whom blocked the
 * other, 429 past the rate limits.
 */
export async function postComment(
  db: Db,
  options: { story: StoryItem; authorId: string; body: string; parentId?: string | undefined; now?: Date },
): Promise<PostedComment> {
  const { story, authorId } = options;
  const now = options.now ?? new Date();
  const parent = options.parentId ? await requireComment(db, story.storyId, options.parentId) : null;
  if (parent) {
    if (parent.state !== 'visible') throw gone(parent);
    if (parent.depth >= COMMENT_MAX_DEPTH) {
      throw new Forbidden(`Replies nest ${COMMENT_MAX_DEPTH + 1} levels deep at most: reply to a comment higher up this thread.`);
    }
    if (parent.authorId !== authorId && (await eitherBlocked(db, parent.authorId, authorId))) {
      throw new Forbidden('You cannot reply to this comment: you or its author has blocked the other.');
    }
  }
  await claimLimits(
    db,
    [
      {
        kind: 'window',
        key: `story-comment-minute:${authorId}`,
        limit: COMMENTS_PER_MINUTE,
        windowSeconds: 60,
        message: (wait) => `You are commenting very fast. Take a breath and post again in ${describeWait(wait)}.`,
      },
      {
        kind: 'window',
        key: `story-comment-day:${authorId}`,
        limit: COMMENTS_PER_DAY,
        windowSeconds: 86_400,
        message: (wait) => `You have posted today's ${COMMENTS_PER_DAY} comments. Try again in ${describeWait(wait)}.`,
      },
    ],
    now,
  );

  const commentId = newCommentId(now);
  const item = {
    storyId: story.storyId,
    commentId,
    ...(parent ? { parentId: parent.commentId } : {}),
    path: parent ? `${parent.path}/${commentId}` : commentId,
    depth: parent ? parent.depth + 1 : 0,
    authorId,
    body: options.body,
    state: 'visible' as const,
    replyCount: 0,
    createdAt: now.toISOString(),
  };
  const object = { type: 'story' as const, id: story.storyId, title: story.title, detail: commentExcerpt(options.body) };
  const events: NotificationEvent[] = [
    // The sharer hears of a reply to their own comment once, as a reply.
    ...(parent?.authorId === story.sharerId
      ? []
      : [{ recipientId: story.sharerId, actorId: authorId, kind: 'story-commented' as const, object, at: now, groupId: commentId }]),
    ...(parent
      ? [{ recipientId: parent.authorId, actorId: authorId, kind: 'comment-replied' as const, object, at: now, groupId: commentId }]
      : []),
  ];

  return retryContendedWrite({ what: 'commenting on this story' }, async () => {
    const prepared = await Promise.all(events.map(async (event) => ({ event, writes: await prepareNotification(db, event) })));
    const notifications = prepared.flatMap(({ event, writes }) => (writes ? [{ event, writes }] : []));
    const result = await db.transaction
      .write((entities) => [
        entities.comment.create(item).commit(),
        entities.story
          .patch({ storyId: story.storyId })
          .add({ commentCount: 1 })
          .commit(),
        ...(parent
          ? [
              entities.comment
                .patch({ storyId: story.storyId, commentId: parent.commentId })
                .add({ replyCount: 1 })
                .where(({ state }, { eq }) => eq(state, 'visible'))
                .commit(),
            ]
          : []),
        ...notifications.flatMap(({ writes }) => writes.commits(entities)),
      ])
      .go();
    if (!result.canceled) {
      const after = await db.entities.story.get({ storyId: story.storyId }).go({ consistent: true });
      return { comment: item, commentCount: Math.max(0, after.data?.commentCount ?? 0), notifications };
    }
    const failed = failedConditions(result);
    if (failed.includes(1)) throw new NotFound(`There is no story with id ${story.storyId}.`);
    if (parent && failed.includes(2)) throw gone((await readComment(db, story.storyId, parent.commentId)) ?? { state: 'deleted' });
    return lostRace(result);
  });
}

/** The caller's own comment, or 404 / 403 (comments are public, so the 403 tells nothing new). */
async function requireOwnComment(
  db: Db,
  options: { storyId: string; commentId: string; userId: string },
  verb: 'edit' | 'delete',
): Promise<CommentItem> {
  const comment = await requireComment(db, options.storyId, options.commentId);
  if (comment.authorId !== options.userId) throw new Forbidden(`You can only ${verb} your own comments.`);
  return comment;
}

/**
 * Replaces the text of the caller's own comment, within COMMENT_EDIT_WINDOW_MINUTES of posting
 * it (403 after, 410 once deleted or removed). A conditional write: a delete or removal that
 * got there first wins.
 */
export async function editComment(
  db: Db,
  options: { storyId: string; commentId: string; userId: string; body: string; now?: Date },
): Promise<CommentItem> {
  const now = options.now ?? new Date();
  const comment = await requireOwnComment(db, options, 'edit');
  if (comment.state !== 'visible') throw gone(comment);
  if (commentEditableUntil(comment.createdAt) <= now) {
    throw new Forbidden(`Comments can be edited for ${COMMENT_EDIT_WINDOW_MINUTES} minutes after posting: this one can no longer be changed.`);
  }
  const editedAt = now.toISOString();
  try {
    await db.entities.comment
      .patch({ storyId: options.storyId, commentId: options.commentId })
      .set({ body: options.body, editedAt })
      .where(({ state, authorId }, { eq }) => `${eq(state, 'visible')} AND ${eq(authorId, options.userId)}`)
      .go({ response: 'none' });
  } catch (error) {
    const latest = await readComment(db, options.storyId, options.commentId);
    if (latest && latest.state !== 'visible') throw gone(latest);
    throw error;
  }
  return { ...comment, body: options.body, editedAt };
}

/**
 * Ends a comment, by its author (`deleted`) or a superuser (`removed`), and takes it off the
 * story's count in the same transaction. A comment with replies stays as a placeholder so its
 * thread still reads; an author's comment without replies goes altogether (and off its parent's
 * reply count). Read, decide, write on condition of what was read; a reply arriving meanwhile
 * makes it read again. Repeating it changes nothing.
 */
async function endComment(
  db: Db,
  comment: CommentItem,
  how: { state: 'deleted' } | { state: 'removed'; by: string },
  now: Date,
): Promise<{ comment: CommentItem | null; commentCount: number }> {
  const key = { storyId: comment.storyId, commentId: comment.commentId };
  return retryContendedWrite({ what: 'changing comments on this story' }, async (attempt) => {
    const current = attempt === 0 ? comment : await readComment(db, comment.storyId, comment.commentId);
    const storyItem = async () => (await db.entities.story.get({ storyId: comment.storyId }).go({ consistent: true })).data;
    if (!current) return { comment: null, commentCount: Math.max(0, (await storyItem())?.commentCount ?? 0) };
    if (current.state !== 'visible') {
      // Already ended: deleting again is done; a removal of a deleted placeholder has nothing left to remove.
      if (how.state === 'deleted' && current.state === 'removed') throw gone(current);
      return { comment: current, commentCount: Math.max(0, (await storyItem())?.commentCount ?? 0) };
    }
    const endedAt = now.toISOString();
    const keepsPlaceholder = how.state === 'removed' || current.replyCount > 0;
    const result = await db.transaction
      .write((entities) => [
        keepsPlaceholder
          ? entities.comment
              .patch(key)
              .set({ state: how.state, endedAt, ...(how.state === 'removed' ? { removedBy: how.by } : {}) })
              .remove(['body'])
              .where(({ state }, { eq }) => eq(state, 'visible'))
              .commit()
          : entities.comment
              .delete(key)
              .where(({ state, replyCount }, { eq }) => `${eq(state, 'visible')} AND ${eq(replyCount, 0)}`)
              .commit(),
        entities.story
          .patch({ storyId: comment.storyId })
          .add({ commentCount: -1 })
          .commit(),
        ...(!keepsPlaceholder && current.parentId
          ? [
              entities.comment
                .patch({ storyId: comment.storyId, commentId: current.parentId })
                .add({ replyCount: -1 })
                .commit(),
            ]
          : []),
      ])
      .go();
    if (result.canceled) {
      if (failedConditions(result).includes(1)) throw new NotFound(`There is no story with id ${comment.storyId}.`);
      return lostRace(result);
    }
    const ended = keepsPlaceholder
      ? { ...current, state: how.state, endedAt, body: undefined, ...(how.state === 'removed' ? { removedBy: how.by } : {}) }
      : null;
    return { comment: ended, commentCount: Math.max(0, (await storyItem())?.commentCount ?? 0) };
  });
}

/** The author deletes their comment, any time: 403 for someone else's, 410 for one a moderator removed. */
export async function deleteComment(
  db: Db,
  options: { storyId: string; commentId: string; userId: string; now?: Date },
): Promise<{ comment: CommentItem | null; commentCount: number }> {
  const comment = await requireOwnComment(db, options, 'delete');
  if (comment.state === 'removed') throw gone(comment);
  return endComment(db, comment, { state: 'deleted' }, options.now ?? new Date());
}

/** A superuser removes a comment (kept as "[removed]") and resolves its open reports as actioned. */
export async function removeComment(
  db: Db,
  options: { storyId: string; commentId: string; superuserId: string; now?: Date },
): Promise<{ comment: CommentItem; commentCount: number }> {
  const now = options.now ?? new Date();
  const comment = await requireComment(db, options.storyId, options.commentId);
  const ended = await endComment(db, comment, { state: 'removed', by: options.superuserId }, now);
  await resolveReportsOf(db, {
    objectType: 'comment',
    objectId: commentReportId(options.storyId, options.commentId),
    resolution: 'actioned',
    resolvedBy: options.superuserId,
    now,
  });
  return { comment: ended.comment ?? comment, commentCount: ended.commentCount };
}
