import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A fixed-size run of consecutive rows of one ranked board, gzip-compressed JSON in base64.
 * Any page of at most RANK_CHUNK_SIZE rows spans one or two chunks, so a page read is one
 * BatchGet however large the board.
 */
export const createRankChunkEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'rankChunk', version: '1' },
      attributes: {
        slot: { type: ['a', 'b'] as const, required: true },
        boardId: { type: 'string', required: true },
        chunk: { type: 'number', required: true },
        runId: { type: 'string', required: true },
        rowCount: { type: 'number', required: true },
        payload: { type: 'string', required: true },
      },
      indexes: {
        byBoardChunk: {
          pk: { field: 'pk', composite: ['slot', 'boardId'] },
          sk: { field: 'sk', composite: ['chunk'] },
        },
      },
    },
    config,
  );

export type RankChunkItem = EntityItem<ReturnType<typeof createRankChunkEntity>>;
