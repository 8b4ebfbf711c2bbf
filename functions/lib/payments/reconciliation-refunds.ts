/**
 * Reconciliation's reads of refunds, per kind of seller: our refund records (the Pro plan's
 * proRefund, a shop's storeRefund, one record per part) as reconciliation.ts compares them. Every
 * read is a key read or a Query of one partition, paged:
 * - a window of refunds: Query gsi2 bySeller between the window's times (all pages);
 * - refunds named by the order ids of the gateway's refunds: BatchGetItem by key;
 * - the completed voids of charges the gateway says are voided: Query each charge's refunds
 *   (a Pro charge's partition; a shop charge's order's).
 */
import { type ProRefundItem, proRefundOfId } from '../db/entities/pro-refund';
import { refundPartKeyOf, refundPartOfKey, type StoreRefundItem } from '../db/entities/store-refund';
import { getBatch } from '../db/batches';
import type { Db } from '../db/service';
import { isInWindow, type TimeWindow } from './gateway';
import { PLATFORM_SELLER_ID } from './pro-plan-access';
import type { RecordedCharge, RecordedRefund } from './reconciliation';

/** One seller's refund records, as reconciliation reads them. */
export interface RefundRecords {
  /** Our refunds (a shop's: their parts) asked for in the window. */
  inWindow(window: TimeWindow): Promise<RecordedRefund[]>;
  /** Our refunds the gateway's refunds name by their order ids (keys); unknown keys are left out. */
  byKeys(keys: readonly string[]): Promise<RecordedRefund[]>;
  /** Of these charges of ours, the ones a completed void of ours gave back. */
  voidedByUs(charges: readonly RecordedCharge[]): Promise<Set<string>>;
}

const unique = <T>(items: readonly T[]) => [...new Set(items)];

const fromProRefund = (refund: ProRefundItem): RecordedRefund => ({
  key: refund.refundId,
  transactionId: refund.transactionId,
  customerId: refund.customerId,
  ...(refund.subscriptionId ? { subscriptionId: refund.subscriptionId } : {}),
  operation: refund.operation,
  status: refund.status,
  amountMinor: refund.amountMinor,
  currency: refund.currency,
  ...(refund.gatewayId ? { gatewayId: refund.gatewayId } : {}),
  createdAt: refund.createdAt,
});

/** Each part of a shop's refund: what one gateway call (a refund or a void of one charge) returned. */
const fromStoreRefund = (refund: StoreRefundItem): RecordedRefund[] =>
  refund.parts.map((part, index) => ({
    key: refundPartKeyOf(refund, index),
    transactionId: part.transactionId,
    customerId: refund.customerId,
    ...(part.subscriptionId ? { subscriptionId: part.subscriptionId } : {}),
    operation: part.operation,
    status: part.status,
    amountMinor: part.amountMinor,
    currency: refund.currency,
    ...(part.gatewayId ? { gatewayId: part.gatewayId } : {}),
    createdAt: refund.createdAt,
  }));

const completedVoid = (refund: RecordedRefund) => refund.operation === 'void' && refund.status === 'succeeded';

function proRefundRecords(db: Db): RefundRecords {
  return {
    async inWindow(window) {
      const { data } = await db.entities.proRefund.query
        .bySeller({ sellerId: PLATFORM_SELLER_ID })
        .between({ createdAt: window.from }, { createdAt: window.to })
        .go({ pages: 'all' });
      return data.map(fromProRefund).filter((refund) => isInWindow(refund.createdAt, window));
    },
    async byKeys(keys) {
      const named = unique(keys).flatMap((key) => proRefundOfId(key) ?? []);
      if (named.length === 0) return [];
      const found = await getBatch({
        keys: named,
        send: async (batch) => {
          const { data, unprocessed } = await db.entities.proRefund.get(batch).go();
          return {
            data,
            unprocessed: unprocessed.map((key) => ({ transactionId: key.transactionId, number: key.number })),
          };
        },
        what: 'Pro refunds',
      });
      return found.map(fromProRefund);
    },
    async voidedByUs(charges) {
      const voided = new Set<string>();
      for (const transactionId of unique(charges.map((charge) => charge.transactionId))) {
        const { data } = await db.entities.proRefund.query.byTransaction({ transactionId }).go({ pages: 'all' });
        if (data.map(fromProRefund).some(completedVoid)) voided.add(transactionId);
      }
      return voided;
    },
  };
}

function storeRefundRecords(db: Db, merchantAccountId: string): RefundRecords {
  return {
    async inWindow(window) {
      const { data } = await db.entities.storeRefund.query
        .bySeller({ merchantAccountId })
        .between({ createdAt: window.from }, { createdAt: window.to })
        .go({ pages: 'all' });
      return data.flatMap(fromStoreRefund).filter((refund) => isInWindow(refund.createdAt, window));
    },
    async byKeys(keys) {
      const named = unique(
        keys.flatMap((key) => {
          const part = refundPartOfKey(key);
          return part ? [`${part.invoiceId}\u0000${part.number}`] : [];
        }),
      ).map((joined) => {
        const [invoiceId, number] = joined.split('\u0000');
        return { invoiceId: invoiceId as string, number: Number(number) };
      });
      if (named.length === 0) return [];
      const found = await getBatch({
        keys: named,
        send: async (batch) => {
          const { data, unprocessed } = await db.entities.storeRefund.get(batch).go();
          return { data, unprocessed: unprocessed.map((key) => ({ invoiceId: key.invoiceId, number: key.number })) };
        },
        what: 'shop refunds',
      });
      // Another shop's refund is never this shop's business, whatever an order id says.
      return found.filter((refund) => refund.merchantAccountId === merchantAccountId).flatMap(fromStoreRefund);
    },
    async voidedByUs(charges) {
      const voided = new Set<string>();
      const charged = new Set(charges.map((charge) => charge.transactionId));
      const invoiceIds = unique(charges.flatMap((charge) => (charge.invoiceId ? [charge.invoiceId] : [])));
      for (const invoiceId of invoiceIds) {
        const { data } = await db.entities.storeRefund.query.byInvoice({ invoiceId }).go({ pages: 'all' });
        for (const part of data.flatMap(fromStoreRefund)) {
          if (completedVoid(part) && charged.has(part.transactionId)) voided.add(part.transactionId);
        }
      }
      return voided;
    },
  };
}

/** The refund records of a seller: the platform's Pro refunds, or a shop's refunds. */
export function refundRecordsOf(db: Db, sellerId: string): RefundRecords {
  return sellerId === PLATFORM_SELLER_ID ? proRefundRecords(db) : storeRefundRecords(db, sellerId);
}
