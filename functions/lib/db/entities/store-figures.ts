import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * What a dashboard shows, precomputed as payments are recorded, for a shop ('shop'), a product
 * ('product:<id>') or a grade ('grade:<id>').
 *
 * storeFigure: per scope, one item per day ('day:YYYY-MM-DD': orders, units, revenue net of
 * refunds, refunds) and one
 * 'total' item (subscriptions active and past due now). The period sorts days before 'total', so
 * 30 days and the subscription counts are one Query (sk between 'day:<from>' and 'total').
 *
 * storeSale: per scope, one row per charge (a cart's sale, a subscription's first charge or a
 * renewal), newest last: the dashboard's latest sales, one Query. The row of the 'shop' scope is
 * put with a condition in the same transaction as the figures' ADDs, so a charge recorded twice
 * (a webhook and the checkout racing) is counted once.
 */
export const createStoreFigureEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storeFigure', version: '1' },
      attributes: {
        merchantAccountId: { type: 'string', required: true },
        scope: { type: 'string', required: true },
        period: { type: 'string', required: true },
        orders: { type: 'number', required: true, default: 0 },
        units: { type: 'number', required: true, default: 0 },
        revenueMinor: { type: 'number', required: true, default: 0 },
        /** What discount codes took off the day's charges; absent on days before discounts were counted. */
        discountsMinor: { type: 'number' },
        /** Refunds made that day, and their sum (already taken off revenueMinor: revenue is net of refunds). */
        refunds: { type: 'number', required: true, default: 0 },
        refundsMinor: { type: 'number', required: true, default: 0 },
        activeSubscriptions: { type: 'number', required: true, default: 0 },
        pastDueSubscriptions: { type: 'number', required: true, default: 0 },
      },
      indexes: {
        byScope: {
          pk: { field: 'pk', composite: ['merchantAccountId', 'scope'], casing: 'none' },
          sk: { field: 'sk', composite: ['period'], casing: 'none' },
        },
      },
    },
    config,
  );

export type StoreFigureItem = EntityItem<ReturnType<typeof createStoreFigureEntity>>;

export const createStoreSaleEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storeSale', version: '1' },
      attributes: {
        merchantAccountId: { type: 'string', required: true },
        scope: { type: 'string', required: true },
        transactionId: { type: 'string', required: true },
        kind: { type: ['order', 'renewal', 'add-on'] as const, required: true },
        invoiceId: { type: 'string' },
        subscriptionId: { type: 'string' },
        customerId: { type: 'string', required: true },
        customerName: { type: 'string', required: true },
        customerEmail: { type: 'string' },
        description: { type: 'string', required: true },
        units: { type: 'number', required: true },
        amountMinor: { type: 'number', required: true },
        /** What a discount code took off the charge. */
        discountMinor: { type: 'number' },
        currency: { type: 'string', required: true },
        paidAt: { type: 'string', required: true },
      },
      indexes: {
        byScope: {
          pk: { field: 'pk', composite: ['merchantAccountId', 'scope'], casing: 'none' },
          sk: { field: 'sk', composite: ['paidAt', 'transactionId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type StoreSaleItem = EntityItem<ReturnType<typeof createStoreSaleEntity>>;

export const shopScope = 'shop';
export const productScope = (productStockId: string) => `product:${productStockId}`;
export const gradeScope = (productStockGradeId: string) => `grade:${productStockGradeId}`;
