import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * Shards of a hot story's like count (docs/operations.md, "Hot items"). A story whose likes
 * collide gets `likeShards` set, and from then on each like ADDs to one of its shards, chosen at
 * random, instead of to the story's own `likeCount`: each shard is a partition key of its own, so
 * a viral story's likes spread over that many partitions instead of queuing on one item. The
 * story's count is its own `likeCount` (the likes before it was sharded) plus its shards'
 * `likes`, read together (addShardedLikes).
 */
export const createStoryLikeShardEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storyLikeShard', version: '1' },
      attributes: {
        storyId: { type: 'string', required: true },
        shard: { type: 'number', required: true },
        /** Likes less unlikes counted in this shard (one shard may go below zero: the sum cannot). */
        likes: { type: 'number', required: true, default: 0 },
      },
      indexes: {
        byShard: {
          pk: { field: 'pk', composite: ['storyId', 'shard'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type StoryLikeShardItem = EntityItem<ReturnType<typeof createStoryLikeShardEntity>>;
