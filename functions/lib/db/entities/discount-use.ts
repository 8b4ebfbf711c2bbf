import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A use of a discount code, claimed as an invoice is paid. Two kinds of holder under one code:
 * `invoice#<invoiceId>` (the use counted for that invoice: a resumed payment finds it and counts
 * nothing more) and, for a once-per-customer code, `customer#<userId>` (a conditional create:
 * a customer's second use fails it). Both are written in the transaction that adds to the code's
 * usesCount, and removed with it when the payment took no money.
 */
export const createDiscountUseEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'discountUse', version: '1' },
      attributes: {
        merchantAccountId: { type: 'string', required: true },
        codeKey: { type: 'string', required: true },
        holder: { type: 'string', required: true },
        invoiceId: { type: 'string', required: true },
        customerId: userIdAttribute,
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byCodeHolder: {
          pk: { field: 'pk', composite: ['merchantAccountId', 'codeKey'], casing: 'none' },
          sk: { field: 'sk', composite: ['holder'], casing: 'none' },
        },
      },
    },
    config,
  );

export type DiscountUseItem = EntityItem<ReturnType<typeof createDiscountUseEntity>>;
export const invoiceHolder = (invoiceId: string) => `invoice#${invoiceId}`;
export const customerHolder = (customerId: string) => `customer#${customerId}`;
