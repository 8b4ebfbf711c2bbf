import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * One user following another. Keyed by the follower, so "whom do I follow" (the following feed,
 * the following-ids filter) is one Query or BatchGet in their partition; gsi1 lists a user's
 * followers. Written in the same transaction as both users' counts.
 */
export const createFollowEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'follow', version: '1' },
      attributes: {
        followerId: userIdAttribute,
        followedId: userIdAttribute,
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byFollower: {
          pk: { field: 'pk', composite: ['followerId'] },
          sk: { field: 'sk', composite: ['followedId'] },
        },
        byFollowed: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['followedId'] },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'followerId'] },
        },
      },
    },
    config,
  );

export type FollowItem = EntityItem<ReturnType<typeof createFollowEntity>>;
