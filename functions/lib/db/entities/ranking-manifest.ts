import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * Points readers at the boards of the latest ranking run. The job writes a run's chunks into
 * the slot not in use, then flips this item, so readers never see a half-written run.
 */
export const createRankingManifestEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'rankingManifest', version: '1' },
      attributes: {
        name: { type: 'string', required: true },
        runId: { type: 'string', required: true },
        slot: { type: ['a', 'b'] as const, required: true },
        generatedAt: { type: 'string', required: true },
        publicationCount: { type: 'number', required: true },
        /** boardId -> number of ranked rows. */
        boardTotals: { type: 'any', required: true },
        /** Topic[] ordered by total followers. */
        topics: { type: 'any', required: true },
        searchChunks: { type: 'number', required: true },
      },
      indexes: {
        byName: {
          pk: { field: 'pk', composite: ['name'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type RankingManifestItem = EntityItem<ReturnType<typeof createRankingManifestEntity>>;
