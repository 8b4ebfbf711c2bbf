import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A recipient of a transfer, by the (lower-cased) address it was sent to: whoever signs in with
 * that address, verified, is the member, whether their account existed when they were added or
 * was made when they opened the emailed link. The recipients of a transfer are one Query of its
 * partition; `downloads` keeps what they downloaded and when (the latest 100).
 */
export const createTransferMemberEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferMember', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        email: { type: 'string', required: true },
        userId: { type: 'string' },
        addedAt: { type: 'string', required: true },
        notifiedAt: { type: 'string' },
        firstDownloadAt: { type: 'string' },
        downloads: {
          type: 'list',
          items: {
            type: 'map',
            properties: { fileId: { type: 'string', required: true }, at: { type: 'string', required: true } },
          },
        },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byTransfer: {
          pk: { field: 'pk', composite: ['transferId'], casing: 'none' },
          sk: { field: 'sk', composite: ['email'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TransferMemberItem = EntityItem<ReturnType<typeof createTransferMemberEntity>>;
