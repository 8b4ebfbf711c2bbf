import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * How many times one order's buyer downloaded one file its grade delivers. Each download is an
 * ADD of 1 on condition that the count is still under the grade's downloads per purchase, so
 * parallel downloads cannot take more than the limit (functions/penpay/lib/digital-downloads.ts).
 */
export const createStoreDownloadEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storeDownload', version: '1' },
      attributes: {
        invoiceId: { type: 'string', required: true },
        fileId: { type: 'string', required: true },
        customerId: userIdAttribute,
        count: { type: 'number', required: true },
        lastDownloadAt: { type: 'string', required: true },
      },
      indexes: {
        byOrderAndFile: {
          pk: { field: 'pk', composite: ['invoiceId', 'fileId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type StoreDownloadItem = EntityItem<ReturnType<typeof createStoreDownloadEntity>>;
