import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A line of a customer's cart at one shop: the grade and quantity, and the price it had when it
 * was added (to flag a change at checkout). The price charged is always the grade's as it is at
 * checkout. A cart is one query: the customer's partition, the shop's prefix.
 */
export const createCartItemEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'cartItem', version: '1' },
      attributes: {
        customerId: userIdAttribute,
        merchantAccountId: { type: 'string', required: true },
        cartItemId: { type: 'string', required: true },
        productStockId: { type: 'string', required: true },
        productStockGradeId: { type: 'string', required: true },
        quantity: { type: 'number', required: true },
        addedUnitPriceMinor: { type: 'number', required: true },
        currency: { type: 'string', required: true },
        addedAt: { type: 'string', required: true },
      },
      indexes: {
        byCustomer: {
          pk: { field: 'pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'sk', composite: ['merchantAccountId', 'cartItemId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type CartItemItem = EntityItem<ReturnType<typeof createCartItemEntity>>;
