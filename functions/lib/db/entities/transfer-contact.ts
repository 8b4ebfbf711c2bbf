import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * Someone a user has sent to, for the recipient field's autocomplete: one item per sender and
 * address, put again at each send so gsi1 orders them most recent first.
 */
export const createTransferContactEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferContact', version: '1' },
      attributes: {
        ownerId: { type: 'string', required: true },
        email: { type: 'string', required: true },
        name: { type: 'string' },
        lastSentAt: { type: 'string', required: true },
      },
      indexes: {
        byAddress: {
          pk: { field: 'pk', composite: ['ownerId'], casing: 'none' },
          sk: { field: 'sk', composite: ['email'], casing: 'none' },
        },
        recent: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['ownerId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['lastSentAt', 'email'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TransferContactItem = EntityItem<ReturnType<typeof createTransferContactEntity>>;
