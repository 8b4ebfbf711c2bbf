import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import {
  DIFFERENCE_KINDS,
  RECONCILIATION_OUTCOMES,
  RECONCILIATION_TRIGGERS,
  RECORD_MISMATCHES,
} from '../../../../shared/payments/reconciliation';
import { SERVICE_NAME } from './service-name';

/** One side of a difference: a charge's status, amount, currency and time, or a subscription's status. */
const SIDE_PROPERTIES = {
  status: { type: 'string' },
  amountMinor: { type: 'number' },
  currency: { type: 'string' },
  at: { type: 'string' },
  refundOf: { type: 'string' },
} as const;

/**
 * One reconciliation run for one seller (functions/lib/payments/reconciliation-run.ts): the
 * window compared, what was compared, and every difference found (the first
 * MAX_STORED_DIFFERENCES of them; `differenceCount` counts them all). A seller's reports are
 * listed newest first under its own partition; everyone's through gsi1 (one partition). Kept 90
 * days (`expiresAt`, the table's TTL).
 */
export const createReconciliationEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'reconciliation', version: '1' },
      attributes: {
        sellerId: { type: 'string', required: true },
        reportId: { type: 'string', required: true },
        trigger: { type: RECONCILIATION_TRIGGERS, required: true },
        /** The superuser who asked, for an on-demand run. */
        requestedBy: { type: 'string' },
        windowFrom: { type: 'string', required: true },
        windowTo: { type: 'string', required: true },
        outcome: { type: RECONCILIATION_OUTCOMES, required: true },
        recordedCharges: { type: 'number', required: true, default: 0 },
        gatewayCharges: { type: 'number', required: true, default: 0 },
        subscriptions: { type: 'number', required: true, default: 0 },
        /** Absent on reports made before refunds were reconciled: 0. */
        recordedRefunds: { type: 'number', default: 0 },
        gatewayRefunds: { type: 'number', default: 0 },
        differenceCount: { type: 'number', required: true, default: 0 },
        differences: {
          type: 'list',
          required: true,
          default: () => [],
          items: {
            type: 'map',
            properties: {
              kind: { type: DIFFERENCE_KINDS, required: true },
              mismatch: { type: RECORD_MISMATCHES },
              transactionId: { type: 'string' },
              subscriptionId: { type: 'string' },
              customerId: { type: 'string' },
              orderId: { type: 'string' },
              refundId: { type: 'string' },
              refundTransactionId: { type: 'string' },
              ours: { type: 'map', properties: SIDE_PROPERTIES },
              gateway: { type: 'map', properties: SIDE_PROPERTIES },
            },
          },
        },
        /** Why a failed run failed, in an operator's words (never a key or a card). */
        error: { type: 'string' },
        ranAt: { type: 'string', required: true },
        durationMs: { type: 'number', required: true },
        /** The one value of the everyone's-reports partition (gsi1). */
        listing: { type: ['reports'] as const, required: true, default: 'reports' },
        /** Epoch seconds; the TTL attribute. */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        bySeller: {
          pk: { field: 'pk', composite: ['sellerId'], casing: 'none' },
          sk: { field: 'sk', composite: ['ranAt', 'reportId'], casing: 'none' },
        },
        latest: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['listing'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['ranAt', 'reportId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type ReconciliationItem = EntityItem<ReturnType<typeof createReconciliationEntity>>;
