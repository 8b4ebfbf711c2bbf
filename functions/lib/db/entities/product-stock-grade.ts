import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { SHELVES, STOCK_STATES, STORE_VISIBILITIES } from './product-stock';

/**
 * A grade of a product: what a customer actually buys, once (`plan` absent) or by subscription
 * on a plan of the merchant's Braintree account, with the add-ons offered with it. `priceMinor`
 * is the one-time price or each cycle's. A product's grades are listed through gsi1 by stock
 * state, in display order (`shelfOrder`, as for products).
 */
export const createProductStockGradeEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'productStockGrade', version: '1' },
      attributes: {
        productStockGradeId: { type: 'string', required: true },
        productStockId: { type: 'string', required: true },
        merchantAccountId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        description: { type: 'string', required: true, default: '' },
        display: {
          type: 'map',
          required: true,
          properties: {
            badge: { type: 'string' },
            highlighted: { type: 'boolean', required: true, default: false },
            position: { type: 'number', required: true, default: 0 },
            features: { type: 'list', items: { type: 'string' } },
          },
        },
        visibility: { type: STORE_VISIBILITIES, required: true },
        stocked: { type: 'boolean', required: true },
        stockState: { type: STOCK_STATES, required: true },
        shelf: { type: SHELVES, required: true },
        shelfOrder: { type: 'string', required: true },
        priceMinor: { type: 'number', required: true },
        currency: { type: 'string', required: true },
        plan: {
          type: 'map',
          properties: {
            braintreePlanId: { type: 'string', required: true },
            billingFrequencyMonths: { type: 'number', required: true },
            addOns: {
              type: 'list',
              required: true,
              items: {
                type: 'map',
                properties: {
                  addOnId: { type: 'string', required: true },
                  name: { type: 'string', required: true },
                  amountMinor: { type: 'number', required: true },
                  maxQuantity: { type: 'number', required: true },
                },
              },
            },
          },
        },
        /**
         * How many times a purchase may download each file the grade delivers (its storedFiles in
         * folder 'grade:<id>'); absent is DEFAULT_DOWNLOADS_PER_PURCHASE (functions/penpay/lib/digital-files.ts).
         */
        downloadsPerPurchase: { type: 'number' },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['productStockGradeId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byProduct: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['productStockId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['stockState', 'shelfOrder', 'productStockGradeId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type ProductStockGradeItem = EntityItem<ReturnType<typeof createProductStockGradeEntity>>;
