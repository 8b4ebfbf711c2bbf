import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * One successful charge, by the gateway's transaction id: the line in a customer's billing
 * history and the reason for exactly one receipt (the receipt is sent by whoever first writes
 * this item, with a conditional put). Listed newest first per customer through gsi1, and in order
 * of time per seller through gsi2 (reconciliation).
 */
export const createPaymentEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'payment', version: '1' },
      attributes: {
        transactionId: { type: 'string', required: true },
        customerId: userIdAttribute,
        sellerId: { type: 'string', required: true },
        subscriptionId: { type: 'string' },
        invoiceId: { type: 'string' },
        description: { type: 'string', required: true },
        amountMinor: { type: 'number', required: true },
        currency: { type: 'string', required: true },
        cardType: { type: 'string' },
        last4: { type: 'string' },
        /** When the gateway made the charge (ISO). */
        chargedAt: { type: 'string', required: true },
        receiptSentAt: { type: 'string' },
        /** Refunds asked of this charge so far (pro-refund.ts): each claims the next number, which serializes them. */
        refundCount: { type: 'number' },
        /** What refunds took of it, those under way included (reserved by their claim). */
        refundedMinor: { type: 'number' },
      },
      indexes: {
        byTransaction: {
          pk: { field: 'pk', composite: ['transactionId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byCustomer: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['customerId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['chargedAt', 'transactionId'], casing: 'none' },
        },
        /** A seller's charges in order of time: what reconciliation reads for a window. */
        bySeller: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['sellerId'], casing: 'none' },
          sk: { field: 'gsi2sk', composite: ['chargedAt', 'transactionId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type PaymentItem = EntityItem<ReturnType<typeof createPaymentEntity>>;
