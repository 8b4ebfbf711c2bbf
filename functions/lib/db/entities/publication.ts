import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** Shards of the publication list, so the ranking job reads it with parallel Queries, not a Scan. */
export const PUBLICATION_SHARDS = 16;

export const createPublicationEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'publication', version: '1' },
      attributes: {
        slug: { type: 'string', required: true },
        name: { type: 'string', required: true },
        url: { type: 'string', required: true },
        description: { type: 'string', default: '' },
        imageUrl: { type: 'string' },
        feedUrl: { type: 'string' },
        topics: { type: 'list', items: { type: 'string' }, default: () => [] },
        /**
         * False for a publication whose source counts no followers (a plain feed): `followers`
         * is then 0, and it is ranked on the activity boards only. Missing means true: every
         * publication stored before feeds were ranked counts its followers.
         */
        followersKnown: { type: 'boolean' },
        followers: { type: 'number', required: true },
        followers7dAgo: { type: 'number', required: true },
        followers30dAgo: { type: 'number', required: true },
        latestPostAt: { type: 'string' },
        /** Day (YYYY-MM-DD) of the first follower count we know. */
        firstSeenDay: { type: 'string', required: true },
        /** Day of the last entry of recentCounts. */
        recentEndDay: { type: 'string', required: true },
        /** Daily follower counts ending at recentEndDay, oldest first; -1 where a day was not observed. */
        recentCounts: { type: 'list', items: { type: 'number' }, required: true },
        shard: { type: 'number', required: true },
        /**
         * Set when its source has been gone (404 or 410) for a week: the ranking leaves it out,
         * its page and history stay. A new snapshot of it brings it back.
         */
        offBoardsSince: { type: 'string' },
        /** Optimistic-concurrency counter for read-modify-write ingestion. */
        revision: { type: 'number', required: true },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        bySlug: {
          pk: { field: 'pk', composite: ['slug'] },
          sk: { field: 'sk', composite: [] },
        },
        byShard: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['shard'] },
          sk: { field: 'gsi1sk', composite: ['slug'] },
        },
      },
    },
    config,
  );

export type PublicationItem = EntityItem<ReturnType<typeof createPublicationEntity>>;
