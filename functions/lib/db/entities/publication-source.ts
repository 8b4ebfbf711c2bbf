import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SOURCE_PLATFORMS, SOURCE_STATUSES } from '../../../../shared/schemas/ranking';
import { SERVICE_NAME } from './service-name';

/** Shards of the source list: the collector's fan-out sends one shard's sources per batch. */
export const SOURCE_SHARDS = 64;

/**
 * A publication's source: the platform's canonical id (Medium's collection id, WordPress.com's
 * site id, a feed's address) names it, so a rename or a move to a new address finds the same
 * item and the same publication (`slug`, fixed when it was first collected). What the collector
 * learnt at its last attempt stays here: the outcome streaks the collector judges, and the last
 * snapshot, which an answer of 304 Not Modified repeats. gsi1 lists a shard's sources for the
 * collector; gsi2 finds the source of a publication for its page.
 */
export const createPublicationSourceEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'publicationSource', version: '1' },
      attributes: {
        canonicalId: { type: 'string', required: true },
        platform: { type: SOURCE_PLATFORMS, required: true },
        /** The address it is read from, normalised by its adapter; updated when it moves. */
        sourceUrl: { type: 'string', required: true },
        slug: { type: 'string', required: true },
        collectShard: { type: 'number', required: true },
        status: { type: SOURCE_STATUSES, required: true },
        /** Followers of the last snapshot; null for a feed, which does not count them. */
        followers: { type: 'number' },
        /** The last snapshot as collected (JSON), for the page and for a 304. */
        lastSnapshot: { type: 'string' },
        /**
         * The ETag and Last-Modified of each document the last snapshot was read from (JSON, by
         * address), sent back at the next collection: an unchanged document costs its host a 304.
         */
        validators: { type: 'string' },
        lastCollectedAt: { type: 'string' },
        lastAttemptAt: { type: 'string' },
        /** First failed attempt of the current run of failures. */
        failingSince: { type: 'string' },
        /** First 404 or 410 of the current run of them. */
        goneSince: { type: 'string' },
        /** Why the last attempt failed, in words safe to show a superuser. */
        lastError: { type: 'string' },
        /** Who suggested it (a user id), or 'import' / 'seed'. */
        addedBy: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byCanonicalId: {
          pk: { field: 'pk', composite: ['canonicalId'] },
          sk: { field: 'sk', composite: [] },
        },
        byShard: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['collectShard'] },
          sk: { field: 'gsi1sk', composite: ['canonicalId'] },
        },
        bySlug: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['slug'] },
          sk: { field: 'gsi2sk', composite: [] },
        },
      },
    },
    config,
  );

export type PublicationSourceItem = EntityItem<ReturnType<typeof createPublicationSourceEntity>>;
