import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A board's news for its RSS and Atom feeds, kept by the ranking job: one item per board
 * (`followers.all`, `growth.all.topic.ux`, ...), so a feed is one GetItem. `entries` is the
 * latest news first, capped (functions/ranking/lib/domain/board-news.ts): on a most followed
 * board the publications that entered its top, on a fastest growing board each week's fastest
 * growing. `top` is the most followed board's top as the last run saw it; `week` the last week
 * whose fastest growing were recorded.
 */
export const createBoardFeedEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'boardFeed', version: '1' },
      attributes: {
        boardId: { type: 'string', required: true },
        /** The run that wrote it: a run retried does nothing twice. */
        runId: { type: 'string', required: true },
        /** Slugs in rank order (most followed boards). */
        top: { type: 'list', items: { type: 'string' } },
        /** Monday of the last week recorded, yyyy-mm-dd (fastest growing boards). */
        week: { type: 'string' },
        /** BoardNewsEntry[], newest first. */
        entries: { type: 'any', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byBoard: {
          pk: { field: 'pk', composite: ['boardId'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type BoardFeedItem = EntityItem<ReturnType<typeof createBoardFeedEntity>>;
