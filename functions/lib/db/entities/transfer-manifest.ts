import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A sent transfer's files, frozen at the send (a sent transfer cannot change): one item in the
 * transfer's partition holding every ready file as gzip-compressed JSON in base64, so a package
 * of 1,000 files is one GetItem rather than a Query of 1,000 items. Written in the send's own
 * transaction; 1,000 files of long names stay well under DynamoDB's 400 KB item limit.
 */
export const createTransferManifestEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferManifest', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        fileCount: { type: 'number', required: true },
        files: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
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

export type TransferManifestItem = EntityItem<ReturnType<typeof createTransferManifestEntity>>;
