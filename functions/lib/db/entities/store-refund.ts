import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A refund of a storefront order (functions/penpay/lib/store-refunds.ts), one per refund asked,
 * numbered within its order (1, 2, …): its id `<invoiceId>_r<number>` is the key a repeated
 * request finds it by, and, with the part's index, the order id its gateway refunds carry, so a
 * refund resumed after a lost answer finds what reached the gateway instead of refunding again.
 *
 * It is created with the order's reservation of its amount in one transaction (the claim), then
 * `pending` while the request holding `attempt` (until `claimedUntil`) calls the gateway, then
 * `succeeded` or `failed`, each once, under a condition on the attempt. Listed per shop in order
 * of time (gsi2) for reconciliation.
 */
export const createStoreRefundEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storeRefund', version: '1' },
      attributes: {
        invoiceId: { type: 'string', required: true },
        number: { type: 'number', required: true, padding: { length: 4, char: '0' } },
        refundId: { type: 'string', required: true },
        merchantAccountId: { type: 'string', required: true },
        customerId: { type: 'string', required: true },
        requestedBy: { type: 'string', required: true },
        scope: { type: ['whole', 'amount', 'items'] as const, required: true },
        /** What was asked, to tell a repeat of the same request from another one. */
        fingerprint: { type: 'string', required: true },
        reason: { type: 'string', required: true },
        amountMinor: { type: 'number', required: true },
        currency: { type: 'string', required: true },
        lineIndexes: { type: 'list', items: { type: 'number' } },
        gradeIds: { type: 'list', items: { type: 'string' } },
        /**
         * What the refund returns of each of the order's lines (an amount is shared in proportion to
         * what each line had left), with the line's product and grade: what later refunds read to
         * know what each line has left. Absent on refunds made before refunds were split by line.
         */
        lineRefunds: {
          type: 'list',
          items: {
            type: 'map',
            properties: {
              index: { type: 'number', required: true },
              productStockId: { type: 'string', required: true },
              productStockGradeId: { type: 'string', required: true },
              amountMinor: { type: 'number', required: true },
            },
          },
        },
        /** Per figure scope (shop, product, grade), the amount the refund takes off its revenue. */
        figureScopes: {
          type: 'list',
          items: {
            type: 'map',
            properties: { scope: { type: 'string', required: true }, amountMinor: { type: 'number', required: true } },
          },
        },
        cancelSubscription: { type: 'boolean', required: true },
        parts: {
          type: 'list',
          required: true,
          items: {
            type: 'map',
            properties: {
              transactionId: { type: 'string', required: true },
              subscriptionId: { type: 'string' },
              operation: { type: ['refund', 'void'] as const, required: true },
              amountMinor: { type: 'number', required: true },
              status: { type: ['pending', 'succeeded', 'failed'] as const, required: true },
              gatewayId: { type: 'string' },
            },
          },
        },
        status: { type: ['pending', 'succeeded', 'failed'] as const, required: true },
        attempt: { type: 'number', required: true },
        claimedUntil: { type: 'string', required: true },
        failure: { type: 'string' },
        canceledSubscriptions: { type: 'number' },
        createdAt: { type: 'string', required: true },
        completedAt: { type: 'string' },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byInvoice: {
          pk: { field: 'pk', composite: ['invoiceId'], casing: 'none' },
          sk: { field: 'sk', composite: ['number'], casing: 'none' },
        },
        /** A shop's refunds in order of time: what reconciliation reads for a window. */
        bySeller: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['merchantAccountId'], casing: 'none' },
          sk: { field: 'gsi2sk', composite: ['createdAt', 'refundId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type StoreRefundItem = EntityItem<ReturnType<typeof createStoreRefundEntity>>;

export const refundIdOf = (invoiceId: string, number: number) => `${invoiceId}_r${number}`;

/** The gateway's key of one part of a refund: the order id its gateway refund carries (`<refundId>-<part number>`). */
export const refundPartKeyOf = (refund: Pick<StoreRefundItem, 'refundId'>, index: number) => `${refund.refundId}-${index + 1}`;

/** The refund and part index a gateway refund's order id names; undefined for an order id that is not a part's key. */
export function refundPartOfKey(key: string): { invoiceId: string; number: number; index: number } | undefined {
  const match = /^(.+)_r(\d+)-(\d+)$/.exec(key);
  if (!match) return undefined;
  return { invoiceId: match[1] as string, number: Number(match[2]), index: Number(match[3]) - 1 };
}
