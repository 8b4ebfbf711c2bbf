import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A member's vote on one file of a package: one item per member and file, in the member's own
 * partition of the transfer, so "my votes" is one Query. Written in the same transaction as the
 * file's counts.
 */
export const createTransferVoteEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferVote', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        fileId: { type: 'string', required: true },
        vote: { type: ['like', 'dislike'] as const, required: true },
        votedAt: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byVoter: {
          pk: { field: 'pk', composite: ['transferId', 'userId'], casing: 'none' },
          sk: { field: 'sk', composite: ['fileId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TransferVoteItem = EntityItem<ReturnType<typeof createTransferVoteEntity>>;
