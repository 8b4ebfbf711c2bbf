import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

export const DISCOUNT_KINDS = ['percent', 'amount'] as const;
export const DISCOUNT_SCOPES = ['shop', 'products', 'grades'] as const;
/** For a subscription line: off its first charge only, or off every charge. */
export const DISCOUNT_APPLIES_TO = ['first', 'every'] as const;

/**
 * A shop's discount code. The key is the code in lower case (`codeKey`), so codes are unique per
 * shop whatever their case: created with a conditional create. `usesCount` only moves in the
 * transaction that claims a use for an invoice being paid (functions/lib/payments/discount-claims.ts), on the
 * condition that it is under `maxUses`, so a limit holds however many pay at once.
 */
export const createDiscountCodeEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'discountCode', version: '1' },
      attributes: {
        merchantAccountId: { type: 'string', required: true },
        codeKey: { type: 'string', required: true },
        /** As the merchant wrote it. */
        code: { type: 'string', required: true },
        kind: { type: DISCOUNT_KINDS, required: true },
        /** A whole percentage (1-100), or an amount in the shop currency's minor units. */
        value: { type: 'number', required: true },
        scope: { type: DISCOUNT_SCOPES, required: true },
        /** The products or grades it is for (scope 'products' or 'grades'). */
        scopeIds: { type: 'list', items: { type: 'string' } },
        currency: { type: 'string', required: true },
        startsAt: { type: 'string' },
        endsAt: { type: 'string' },
        maxUses: { type: 'number' },
        usesCount: { type: 'number', required: true, default: 0 },
        oncePerCustomer: { type: 'boolean', required: true, default: false },
        appliesTo: { type: DISCOUNT_APPLIES_TO, required: true, default: 'first' },
        active: { type: 'boolean', required: true, default: true },
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byShopCode: {
          pk: { field: 'pk', composite: ['merchantAccountId'], casing: 'none' },
          sk: { field: 'sk', composite: ['codeKey'], casing: 'none' },
        },
      },
    },
    config,
  );

export type DiscountCodeItem = EntityItem<ReturnType<typeof createDiscountCodeEntity>>;
