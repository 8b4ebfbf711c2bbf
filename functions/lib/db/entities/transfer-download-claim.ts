import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * That a visitor (a user, a recipient's grant, or a link visitor's grant) took a file of a
 * package (or its zip) and until when asking for it again is the same download: a resumed or
 * repeated download within the hour is not logged or counted twice. Put on condition that no
 * claim is running, in the transaction that counts the download.
 */
export const createTransferDownloadClaimEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferDownloadClaim', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        /** A hash of who downloads: never an address or a grant's value. */
        visitorHash: { type: 'string', required: true },
        fileId: { type: 'string', required: true },
        /** Epoch milliseconds until which the same visitor's same download is not counted again. */
        claimedUntil: { type: 'number', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byVisitorAndFile: {
          pk: { field: 'pk', composite: ['transferId', 'visitorHash', 'fileId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type TransferDownloadClaimItem = EntityItem<ReturnType<typeof createTransferDownloadClaimEntity>>;
