import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A customer's current invoice at a seller for one thing being bought (`priceId`: a Pro price;
 * 'cart' for a shop's cart), so asking for it again (a reload, a second tab) answers the same
 * invoice while what it charges (`contentKey`) is the same. When that changes (a cart gains an
 * item) the pointer moves to a new invoice, and the one it left is superseded: a claim to pay an
 * open invoice checks, in its transaction, that the pointer still names it. Moved with
 * conditional puts; set to the paid invoice when one is paid, so an invoice made meanwhile can
 * say the cart was paid.
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
        /** What the invoice charges (a hash of a cart's lines); absent on pointers made before it was kept: then `priceId`. */
        contentKey: { type: 'string' },
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
