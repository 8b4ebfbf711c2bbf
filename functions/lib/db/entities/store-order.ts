import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A paid storefront invoice, as its customer lists it across shops (gsi1, newest first): written
 * in the transaction that marks the invoice paid, with the shop's name as it was.
 */
export const createStoreOrderEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storeOrder', version: '1' },
      attributes: {
        invoiceId: { type: 'string', required: true },
        customerId: userIdAttribute,
        merchantAccountId: { type: 'string', required: true },
        shopName: { type: 'string', required: true },
        handle: { type: 'string', required: true },
        lines: {
          type: 'list',
          required: true,
          items: {
            type: 'map',
            properties: {
              productStockId: { type: 'string', required: true },
              productStockGradeId: { type: 'string', required: true },
              description: { type: 'string', required: true },
              billing: { type: ['once', 'subscription'] as const, required: true },
              quantity: { type: 'number', required: true },
              unitPriceMinor: { type: 'number', required: true },
              /** What a discount code took off the line (all its units). */
              discountMinor: { type: 'number' },
            },
          },
        },
        /** Refunds asked for so far (store-refund.ts): each claims the next number, which serializes them. */
        refundCount: { type: 'number' },
        totalMinor: { type: 'number', required: true },
        /** The discount code it was paid with, as typed by its merchant. */
        discountCode: { type: 'string' },
        currency: { type: 'string', required: true },
        card: {
          type: 'map',
          properties: { cardType: { type: 'string', required: true }, last4: { type: 'string', required: true } },
        },
        paidAt: { type: 'string', required: true },
        refundedMinor: { type: 'number' },
        refundedGradeIds: { type: 'list', items: { type: 'string' } },
      },
      indexes: {
        byInvoice: {
          pk: { field: 'pk', composite: ['invoiceId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byCustomer: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['paidAt', 'invoiceId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type StoreOrderItem = EntityItem<ReturnType<typeof createStoreOrderEntity>>;
