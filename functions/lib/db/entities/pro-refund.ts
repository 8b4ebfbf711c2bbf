import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A superuser's refund of one Pro plan charge (functions/subscriptions/lib/pro-refunds.ts), one
 * per refund asked, numbered within its charge (1, 2, …) beside the charge's payment item: its id
 * `<transactionId>_r<number>` is the key a repeated request finds it by, and the order id its
 * gateway refund carries, so a refund resumed after a lost answer finds what reached the gateway
 * instead of refunding again.
 *
 * It is created with the payment's reservation of its amount in one transaction (the claim), then
 * `pending` while the request holding `attempt` (until `claimedUntil`) calls the gateway, then
 * `succeeded` or `failed`, each once, under a condition on the attempt. Listed per person (gsi1),
 * newest first, for their subscription page, and in order of time under the platform's seller
 * partition (gsi2) for reconciliation.
 */
export const createProRefundEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'proRefund', version: '1' },
      attributes: {
        transactionId: { type: 'string', required: true },
        number: { type: 'number', required: true, padding: { length: 4, char: '0' } },
        refundId: { type: 'string', required: true },
        customerId: userIdAttribute,
        /** Always the platform's (the Pro plan's seller): the partition reconciliation reads a window of (gsi2). */
        sellerId: { type: 'string', default: 'platform', readOnly: true },
        subscriptionId: { type: 'string' },
        /** The superuser who asked for it. */
        requestedBy: { type: 'string', required: true },
        /** What was asked, to tell a repeat of the same request from another one. */
        fingerprint: { type: 'string', required: true },
        reason: { type: 'string', required: true },
        amountMinor: { type: 'number', required: true },
        currency: { type: 'string', required: true },
        operation: { type: ['refund', 'void'] as const, required: true },
        status: { type: ['pending', 'succeeded', 'failed'] as const, required: true },
        attempt: { type: 'number', required: true },
        claimedUntil: { type: 'string', required: true },
        gatewayId: { type: 'string' },
        failure: { type: 'string' },
        cancelSubscription: { type: 'boolean', required: true },
        subscriptionCanceled: { type: 'boolean' },
        createdAt: { type: 'string', required: true },
        completedAt: { type: 'string' },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byTransaction: {
          pk: { field: 'pk', composite: ['transactionId'], casing: 'none' },
          sk: { field: 'sk', composite: ['number'], casing: 'none' },
        },
        byCustomer: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'refundId'], casing: 'none' },
        },
        /** The Pro plan's refunds in order of time, beside its payments: what reconciliation reads for a window. */
        bySeller: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['sellerId'], casing: 'none' },
          sk: { field: 'gsi2sk', composite: ['createdAt', 'refundId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type ProRefundItem = EntityItem<ReturnType<typeof createProRefundEntity>>;

export const proRefundIdOf = (transactionId: string, number: number) => `${transactionId}_r${number}`;

/** The charge and number a gateway refund's order id names; undefined for an order id that is not a Pro refund's id. */
export function proRefundOfId(refundId: string): { transactionId: string; number: number } | undefined {
  const match = /^(.+)_r(\d+)$/.exec(refundId);
  if (!match) return undefined;
  return { transactionId: match[1] as string, number: Number(match[2]) };
}
