import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** Shards of the watch list, so the ranking job reads it with parallel Queries, not a Scan. */
export const WATCH_SHARDS = 16;

/**
 * A publication somebody follows, with what the ranking job needs to tell its followers news:
 * its ranks at the last run (to see it enter a board's top 100), the rank each board's climb is
 * measured from (its lowest point since the last climb was announced), and whether it was
 * active. It lives in the publication's partition, so the publication page reads the follower
 * count with the publication; gsi1 lists every watched publication for the job.
 */
export const createPublicationWatchEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'publicationWatch', version: '1' },
      attributes: {
        slug: { type: 'string', required: true },
        watchShard: { type: 'number', required: true },
        /** People following it; the job skips a publication nobody follows any more. */
        followerCount: { type: 'number' },
        /** boardId -> rank at the last run. */
        lastRanks: { type: 'any' },
        /** boardId -> the rank a climb is measured from. */
        baselines: { type: 'any' },
        wasActive: { type: 'boolean' },
        /** The ranking run these ranks come from: a second look at the same run changes nothing. */
        runId: { type: 'string' },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        bySlug: {
          pk: { field: 'pk', composite: ['slug'] },
          sk: { field: 'sk', composite: [] },
        },
        byShard: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['watchShard'] },
          sk: { field: 'gsi1sk', composite: ['slug'] },
        },
      },
    },
    config,
  );

export type PublicationWatchItem = EntityItem<ReturnType<typeof createPublicationWatchEntity>>;
