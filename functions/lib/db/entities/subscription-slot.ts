import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A customer's one place for a live subscription in a plan family at a seller (the Pro plan,
 * whichever its price; a shop's grade). Taken with a conditional write in the same transaction
 * that claims an invoice, before the gateway is called: a second invoice of the same family, paid
 * at the same moment or later, finds the place taken and charges nothing.
 *
 * `invoiceId` is the invoice holding it: while it is paid, for as long as its claim lasts; once
 * its subscription is stored, `subscriptionId` names it and `liveUntil` follows it (far ahead
 * while it renews, the end of its grace or paid period once it stops). A place whose `liveUntil`
 * has passed is free again.
 */
export const createSubscriptionSlotEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'subscriptionSlot', version: '1' },
      attributes: {
        customerId: userIdAttribute,
        sellerId: { type: 'string', required: true },
        /** The plan family: the Pro plan's product id; a shop's grade id. */
        family: { type: 'string', required: true },
        invoiceId: { type: 'string', required: true },
        subscriptionId: { type: 'string' },
        /** ISO 8601: the place is free from this instant on. */
        liveUntil: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byFamily: {
          pk: { field: 'pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'sk', composite: ['sellerId', 'family'], casing: 'none' },
        },
      },
    },
    config,
  );

export type SubscriptionSlotItem = EntityItem<ReturnType<typeof createSubscriptionSlotEntity>>;
