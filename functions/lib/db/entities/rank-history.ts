import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * One month of daily ranks of the publications of one bucket (a fixed hash of the slug),
 * gzip-compressed, one line per publication: `\n{slug}\t{"DD":{boardId:rank}}`. Bucketing keeps
 * the hourly write to about a thousand items however many publications there are (an item per
 * publication per day would be 17,000 writes a run); a line per publication lets the page pick
 * out its own line without parsing the bucket's others; a publication's 90 days are one Query
 * of at most four items.
 */
export const createRankHistoryEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'rankHistory', version: '1' },
      attributes: {
        bucket: { type: 'number', required: true },
        /** YYYY-MM (UTC). */
        month: { type: 'string', required: true },
        payload: { type: 'string', required: true },
        runId: { type: 'string', required: true },
        /** Epoch seconds; the TTL attribute: a month is dropped once no chart reaches back to it. */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byBucketAndMonth: {
          pk: { field: 'pk', composite: ['bucket'] },
          sk: { field: 'sk', composite: ['month'] },
        },
      },
    },
    config,
  );

export type RankHistoryItem = EntityItem<ReturnType<typeof createRankHistoryEntity>>;
/** boardId -> rank (1 is first), only for the boards a publication is on. */
export type BoardRanks = Record<string, number>;
/** Day of the month ('DD') -> ranks: one publication's month. */
export type DaysOfRanks = Record<string, BoardRanks>;
/** slug -> its month. */
export type MonthOfRanks = Record<string, DaysOfRanks>;
