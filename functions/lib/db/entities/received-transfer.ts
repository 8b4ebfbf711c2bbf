import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A sent transfer in a recipient's list, by address (so an account made later sees what was sent
 * before), newest first. Written when the transfer is sent, or when a recipient is added after.
 */
export const createReceivedTransferEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'receivedTransfer', version: '1' },
      attributes: {
        email: { type: 'string', required: true },
        transferId: { type: 'string', required: true },
        sentAt: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byRecipient: {
          pk: { field: 'pk', composite: ['email'], casing: 'none' },
          sk: { field: 'sk', composite: ['sentAt', 'transferId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type ReceivedTransferItem = EntityItem<ReturnType<typeof createReceivedTransferEntity>>;
