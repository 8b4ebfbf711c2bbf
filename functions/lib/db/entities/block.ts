import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * One user blocking another. Keyed by the blocker, so "whom have I blocked" is one Query of the
 * blocker's partition (the same partition as their user item, under another sort-key prefix).
 */
export const createBlockEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'block', version: '1' },
      attributes: {
        userId: userIdAttribute,
        blockedUserId: userIdAttribute,
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byUser: {
          pk: { field: 'pk', composite: ['userId'] },
          sk: { field: 'sk', composite: ['blockedUserId'] },
        },
      },
    },
    config,
  );

export type BlockItem = EntityItem<ReturnType<typeof createBlockEntity>>;
