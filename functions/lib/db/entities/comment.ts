import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * Where a comment stands: shown; deleted by its author while it has replies (kept as a
 * "[deleted]" placeholder so the thread under it still reads); removed by a superuser (kept,
 * shown as removed). A comment deleted without replies is no item at all.
 */
export const COMMENT_STATES = ['visible', 'deleted', 'removed'] as const;
export type CommentState = (typeof COMMENT_STATES)[number];

/**
 * A comment on a story, or a reply to one. In the story's partition: reading a comment is one
 * GetItem by story and comment id, and reading a story's comments is one Query of gsi1 ordered
 * by `path` (the ids from the top of the thread down), so every thread reads in order, replies
 * under their parent, oldest first at each level. Ids start with the time, so they sort by age.
 */
export const createCommentEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'comment', version: '1' },
      attributes: {
        storyId: { type: 'string', required: true },
        commentId: { type: 'string', required: true },
        /** The comment this replies to; absent for a comment on the story itself. */
        parentId: { type: 'string' },
        /** The ids from the thread's first comment down to this one, joined by '/'. */
        path: { type: 'string', required: true, readOnly: true },
        /** 0 for a comment on the story, 1 for a reply to it, and so on. */
        depth: { type: 'number', required: true, readOnly: true },
        authorId: userIdAttribute,
        /** The Markdown as written; removed when the comment is deleted or removed. */
        body: { type: 'string' },
        state: { type: COMMENT_STATES, required: true, default: 'visible' },
        /** Replies directly under this one that still have an item (so a delete knows to leave a placeholder). */
        replyCount: { type: 'number', required: true, default: 0 },
        createdAt: { type: 'string', required: true },
        editedAt: { type: 'string' },
        /** When its author deleted it, or a superuser removed it, and which superuser. */
        endedAt: { type: 'string' },
        removedBy: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['storyId'], casing: 'none' },
          sk: { field: 'sk', composite: ['commentId'], casing: 'none' },
        },
        byPath: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['storyId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['path'], casing: 'none' },
        },
      },
    },
    config,
  );

export type CommentItem = EntityItem<ReturnType<typeof createCommentEntity>>;
