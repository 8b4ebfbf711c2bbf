import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A customer's open invoice for one price, so asking for "the invoice for this price" again
 * (a reload, a second tab) answers the same invoice instead of making another. Made with a
 * conditional put; removed in the transaction that marks the invoice paid.
 */
export const createOpenInvoiceEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'openInvoice', version: '1' },
      attributes: {
        customerId: userIdAttribute,
        sellerId: { type: 'string', required: true },
        priceId: { type: 'string', required: true },
        invoiceId: { type: 'string', required: true },
      },
      indexes: {
        byCustomerPrice: {
          pk: { field: 'pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'sk', composite: ['sellerId', 'priceId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type OpenInvoiceItem = EntityItem<ReturnType<typeof createOpenInvoiceEntity>>;
