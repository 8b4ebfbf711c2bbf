import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * Daily follower counts of one publication for one calendar year, as a map 'MM-DD' -> count.
 * One item per publication per year keeps history compact: 17,000 publications x 90 days is
 * 17,000 items, not 1.5 million.
 */
export const createFollowerHistoryEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'followerHistory', version: '1' },
      attributes: {
        slug: { type: 'string', required: true },
        year: { type: 'string', required: true },
        days: { type: 'any', required: true },
        revision: { type: 'number', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        bySlugAndYear: {
          pk: { field: 'pk', composite: ['slug'] },
          sk: { field: 'sk', composite: ['year'] },
        },
      },
    },
    config,
  );

export type FollowerHistoryItem = EntityItem<ReturnType<typeof createFollowerHistoryEntity>>;
export type DailyCounts = Record<string, number>;
