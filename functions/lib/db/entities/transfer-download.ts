import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** Who took a download, as the sender's log tells it. */
export const DOWNLOADER_KINDS = ['anonymous', 'user', 'recipient'] as const;

/**
 * One download of a sent package (a file, or 'all' for the zip), for its sender's download log:
 * newest first is one Query of the transfer's partition. Written in the transaction that claims
 * (and, under a download limit, counts) the download, so the log holds exactly the downloads
 * that counted. Kept until the transfer's records go (the table's TTL).
 */
export const createTransferDownloadEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferDownload', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        downloadId: { type: 'string', required: true },
        at: { type: 'string', required: true },
        /** A file id, or 'all' for the zip of every file. */
        fileId: { type: 'string', required: true },
        fileName: { type: 'string', required: true, default: '' },
        downloader: { type: DOWNLOADER_KINDS, required: true },
        /** The signed-in downloader (or the recipient's account); absent for anyone with the link. */
        userId: { type: 'string' },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byTransfer: {
          pk: { field: 'pk', composite: ['transferId'], casing: 'none' },
          sk: { field: 'sk', composite: ['at', 'downloadId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TransferDownloadItem = EntityItem<ReturnType<typeof createTransferDownloadEntity>>;
