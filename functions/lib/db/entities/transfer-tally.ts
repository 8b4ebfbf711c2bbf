import { Entity, type EntityConfiguration } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * The like and dislike counts of a package's files, in one item of the transfer's partition:
 * one top-level number per file and vote (`like_<fileId>`, `dislike_<fileId>`), which a vote's
 * transaction ADDs to, so a package reads every count with one GetItem. The entity fixes the
 * item's key; the counts are read and written by name (functions/transfers/lib/tally.ts), as
 * ElectroDB models no attributes named by data.
 */
export const createTransferTallyEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferTally', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        expiresAt: { type: 'number' },
      },
      indexes: {
        byTransfer: {
          pk: { field: 'pk', composite: ['transferId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );
