import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A story in a reader's "following" feed: written to each follower when someone they follow
 * shares (fan-out on write), so the feed is one Query of the reader's partition whatever the
 * number of people they follow. Kept 30 days (`expiresAt`, the table's TTL).
 */
export const createTimelineEntryEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'timelineEntry', version: '1' },
      attributes: {
        userId: userIdAttribute,
        createdAt: { type: 'string', required: true },
        storyId: { type: 'string', required: true },
        sharerId: userIdAttribute,
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byReader: {
          pk: { field: 'pk', composite: ['userId'] },
          sk: { field: 'sk', composite: ['createdAt', 'storyId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TimelineEntryItem = EntityItem<ReturnType<typeof createTimelineEntryEntity>>;

export const HOT_LIST = 'hot';

/**
 * The hot feed's order, recomputed by the rank-hot-stories job: the ids of the hottest stories
 * of the last week, hottest first. One item, so a hot page is one GetItem and one BatchGetItem.
 */
export const createStoryListEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storyList', version: '1' },
      attributes: {
        list: { type: [HOT_LIST] as const, required: true },
        storyIds: { type: 'list', items: { type: 'string' }, required: true },
        computedAt: { type: 'string', required: true },
      },
      indexes: {
        byList: {
          pk: { field: 'pk', composite: ['list'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );
