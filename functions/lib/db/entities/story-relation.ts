import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * What one reader did with one story: opened its link (through the redirect route), liked it.
 * One item per story and reader, in the story's partition, so a story's likes are one Query and
 * the caller's relation to a story is one GetItem. A like exists exactly while `likedAt` is set,
 * and is set or removed in the same transaction as the story's like count.
 */
export const createStoryRelationEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storyRelation', version: '1' },
      attributes: {
        storyId: { type: 'string', required: true },
        userId: userIdAttribute,
        redirectedAt: { type: 'string' },
        likedAt: { type: 'string' },
      },
      indexes: {
        byStory: {
          pk: { field: 'pk', composite: ['storyId'], casing: 'none' },
          sk: { field: 'sk', composite: ['userId'] },
        },
      },
    },
    config,
  );

export type StoryRelationItem = EntityItem<ReturnType<typeof createStoryRelationEntity>>;
