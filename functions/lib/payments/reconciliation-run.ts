/**
 * Reconciliation, the part that reads and writes: for one seller and one window, our payment
 * records and subscriptions against the seller's own gateway (the platform's for the Pro plan,
 * a shop's for its storefront), compared by reconciliation.ts, stored as a report.
 *
 * What is read, per seller:
 * - our payments of the window (Query gsi2 bySeller), and the gateway's sales of the window
 *   (listTransactions); a charge of the gateway's with no record of the window is then looked up
 *   by its transaction id, so a record is found wherever its time put it;
 * - our subscriptions that still bill (Query gsi2 bySeller, filtered), and the gateway's
 *   (listSubscriptions by status); each one only one side lists is then looked up on the other
 *   (GetItem by id; findSubscription), so an ended one is compared with what the other side says;
 * - our refunds of the window and the gateway's (listRefunds); each gateway refund no record of
 *   the window names is looked up by its order id (our refund's key), and each completed refund
 *   of ours the gateway did not list in the window by its key at the gateway (findRefundByOrderId),
 *   so a refund is matched whatever window its other side fell in; each completed void's charge is
 *   looked up at the gateway (findTransaction) unless listed; each charge the gateway says is
 *   voided has its refunds read, to find our void (reconciliation-refunds.ts).
 */
import { randomUUID } from 'node:crypto';
import { getBatch } from '../db/batches';
import type { ReconciliationItem } from '../db/entities/reconciliation';
import type { Db } from '../db/service';
import { HttpError, NotFound } from '../errors';
import { logger } from '../logger';
import {
  type GatewayListedRefund,
  type GatewaySubscriptionSummary,
  type PaymentGateway,
  PaymentRecordNotFound,
  type TimeWindow,
  type TransactionStatus,
} from './gateway';
import { merchantPaymentGateway } from './merchant-gateway';
import { paymentGateway } from './payment-gateway';
import { PLATFORM_SELLER_ID } from './pro-plan-access';
import {
  LIVE_SUBSCRIPTION_STATUSES,
  type ReconciliationOutcome,
  type RecordedCharge,
  type RecordedRefund,
  type RecordedSubscription,
  reconcile,
} from './reconciliation';
import { refundRecordsOf } from './reconciliation-refunds';

/** Differences kept on one report (an item stays well under DynamoDB's 400 KB); `differenceCount` counts them all. */
export const MAX_STORED_DIFFERENCES = 500;
/** How long a report is kept (the table's TTL). */
const REPORT_TTL_DAYS = 90;
/** Lookups of one kind sent to the gateway at once. */
const GATEWAY_LOOKUPS_AT_ONCE = 4;

export type ReconciliationTrigger = ReconciliationItem['trigger'];

/** A seller whose payments can be reconciled: its id and how to reach its gateway. */
export interface ReconcilableSeller {
  sellerId: string;
  gateway: () => Promise<PaymentGateway>;
}

async function inTurns<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return results;
}

const toRecordedCharge = (payment: {
  transactionId: string;
  customerId: string;
  subscriptionId?: string;
  invoiceId?: string;
  amountMinor: number;
  currency: string;
  chargedAt: string;
}): RecordedCharge => ({
  transactionId: payment.transactionId,
  customerId: payment.customerId,
  ...(payment.subscriptionId ? { subscriptionId: payment.subscriptionId } : {}),
  ...(payment.invoiceId ? { invoiceId: payment.invoiceId } : {}),
  amountMinor: payment.amountMinor,
  currency: payment.currency,
  chargedAt: payment.chargedAt,
});

const toRecordedSubscription = (subscription: RecordedSubscription): RecordedSubscription => ({
  subscriptionId: subscription.subscriptionId,
  customerId: subscription.customerId,
  status: subscription.status,
});

async function paymentsByTransaction(db: Db, transactionIds: readonly string[]): Promise<RecordedCharge[]> {
  if (transactionIds.length === 0) return [];
  const found = await getBatch({
    keys: transactionIds.map((transactionId) => ({ transactionId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.payment.get(keys).go();
      return { data, unprocessed: unprocessed.map((key) => ({ transactionId: key.transactionId })) };
    },
    what: 'payments',
  });
  return found.map(toRecordedCharge);
}

async function subscriptionsById(db: Db, subscriptionIds: readonly string[]): Promise<RecordedSubscription[]> {
  if (subscriptionIds.length === 0) return [];
  const found = await getBatch({
    keys: subscriptionIds.map((subscriptionId) => ({ subscriptionId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.subscription.get(keys).go();
      return { data, unprocessed: unprocessed.map((key) => ({ subscriptionId: key.subscriptionId })) };
    },
    what: 'subscriptions',
  });
  return found.map(toRecordedSubscription);
}

/** The gateway's view of subscriptions it does not list as billing: ended ones, and ones it does not know (left out). */
async function gatewaySubscriptionsById(gateway: PaymentGateway, ids: readonly string[]): Promise<GatewaySubscriptionSummary[]> {
  const found = await inTurns(ids, GATEWAY_LOOKUPS_AT_ONCE, async (id) => {
    try {
      const subscription = await gateway.findSubscription(id);
      return { id: subscription.id, planId: subscription.planId, status: subscription.status, updatedAt: subscription.updatedAt };
    } catch (error) {
      if (error instanceof PaymentRecordNotFound) return undefined;
      throw error;
    }
  });
  return found.filter((subscription): subscription is GatewaySubscriptionSummary => subscription !== undefined);
}

/** The gateway's status now of each charge (null: unknown to it). */
async function chargeStatuses(gateway: PaymentGateway, ids: readonly string[]): Promise<Map<string, TransactionStatus | null>> {
  const found = await inTurns(ids, GATEWAY_LOOKUPS_AT_ONCE, async (id) => {
    try {
      return [id, (await gateway.findTransaction(id)).status] as const;
    } catch (error) {
      if (error instanceof PaymentRecordNotFound) return [id, null] as const;
      throw error;
    }
  });
  return new Map(found);
}

/** The gateway's refunds made with these order ids (our refunds' keys), wherever their time put them. */
async function gatewayRefundsByKey(gateway: PaymentGateway, refunds: readonly RecordedRefund[]): Promise<GatewayListedRefund[]> {
  const found = await inTurns(refunds, GATEWAY_LOOKUPS_AT_ONCE, (refund) => gateway.findRefundByOrderId(refund.key));
  return found.filter((credit): credit is GatewayListedRefund => credit !== null);
}

/** Reads both sides for one seller and window, and compares them. Throws when either side cannot be read. */
export async function reconcileSeller(
  db: Db,
  sellerId: string,
  gateway: PaymentGateway,
  window: TimeWindow,
): Promise<ReconciliationOutcome> {
  const refundRecords = refundRecordsOf(db, sellerId);
  const [recorded, gatewayCharges, recordedLive, gatewayLive, recordedRefunds, gatewayRefunds] = await Promise.all([
    db.entities.payment.query
      .bySeller({ sellerId })
      .between({ chargedAt: window.from }, { chargedAt: window.to })
      .go({ pages: 'all' })
      .then(({ data }) => data.map(toRecordedCharge)),
    gateway.listTransactions(window),
    db.entities.subscription.query
      .bySeller({ sellerId })
      .where(({ status }, { eq }) => LIVE_SUBSCRIPTION_STATUSES.map((live) => eq(status, live)).join(' OR '))
      .go({ pages: 'all' })
      .then(({ data }) => data.map(toRecordedSubscription)),
    gateway.listSubscriptions({ statuses: LIVE_SUBSCRIPTION_STATUSES }),
    refundRecords.inWindow(window),
    gateway.listRefunds(window),
  ]);

  const recordedIds = new Set(recorded.map((record) => record.transactionId));
  const recordedElsewhere = await paymentsByTransaction(
    db,
    gatewayCharges.filter((transaction) => !recordedIds.has(transaction.id)).map((transaction) => transaction.id),
  );

  const recordedLiveIds = new Set(recordedLive.map((subscription) => subscription.subscriptionId));
  const gatewayLiveIds = new Set(gatewayLive.map((subscription) => subscription.id));
  const [recordedEnded, gatewayEnded] = await Promise.all([
    // Billing at the gateway, not in our table as billing: ended in our copy, or not there at all.
    subscriptionsById(
      db,
      [...gatewayLiveIds].filter((id) => !recordedLiveIds.has(id)),
    ),
    // Billing in our copy, not listed as billing by the gateway: ended there, or unknown to it.
    gatewaySubscriptionsById(
      gateway,
      [...recordedLiveIds].filter((id) => !gatewayLiveIds.has(id)),
    ),
  ]);

  const allRecorded = [...recorded, ...recordedElsewhere];
  const recordedByTransaction = new Map(allRecorded.map((record) => [record.transactionId, record]));
  const listedCharges = new Map(gatewayCharges.map((transaction) => [transaction.id, transaction.status]));
  const refundKeys = new Set(recordedRefunds.map((refund) => refund.key));
  const listedRefundKeys = new Set(gatewayRefunds.flatMap((credit) => (credit.orderId ? [credit.orderId] : [])));
  const listedRefundIds = new Set(gatewayRefunds.map((credit) => credit.id));
  const completedInWindow = recordedRefunds.filter((refund) => refund.status === 'succeeded');
  const voidsOfUnlistedCharges = completedInWindow.filter(
    (refund) => refund.operation === 'void' && !listedCharges.has(refund.transactionId),
  );
  const [refundsElsewhere, gatewayRefundsElsewhere, unlistedChargeStatuses, voidedByUs] = await Promise.all([
    // Refunds at the gateway in the window whose record of ours was asked for in another window.
    refundRecords.byKeys(
      gatewayRefunds.flatMap((credit) => (credit.orderId && !refundKeys.has(credit.orderId) ? [credit.orderId] : [])),
    ),
    // Completed refunds of ours whose gateway refund was made in another window (or never).
    gatewayRefundsByKey(
      gateway,
      completedInWindow.filter(
        (refund) =>
          refund.operation === 'refund' &&
          !listedRefundKeys.has(refund.key) &&
          !(refund.gatewayId && listedRefundIds.has(refund.gatewayId)),
      ),
    ),
    chargeStatuses(gateway, [...new Set(voidsOfUnlistedCharges.map((refund) => refund.transactionId))]),
    // Charges of ours the gateway says are voided: consistent when the void is ours.
    refundRecords.voidedByUs(
      gatewayCharges.flatMap((transaction) => {
        const record = recordedByTransaction.get(transaction.id);
        return transaction.status === 'voided' && record ? [record] : [];
      }),
    ),
  ]);
  const voidedChargeStatuses = new Map<string, TransactionStatus | null>([...listedCharges, ...unlistedChargeStatuses]);

  return reconcile({
    window,
    recordedCharges: allRecorded,
    gatewayCharges,
    recordedSubscriptions: [...recordedLive, ...recordedEnded],
    gatewaySubscriptions: [...gatewayLive, ...gatewayEnded],
    recordedRefunds: [...recordedRefunds, ...refundsElsewhere],
    gatewayRefunds: [...gatewayRefunds, ...gatewayRefundsElsewhere],
    voidedChargeStatuses,
    voidedByUs,
  });
}

/** The gateway a seller is reconciled against: the platform's, or the shop's own. 404 for a seller with no gateway. */
export async function reconcilableSeller(db: Db, sellerId: string): Promise<ReconcilableSeller> {
  if (sellerId === PLATFORM_SELLER_ID) return { sellerId, gateway: paymentGateway };
  const { data: keys } = await db.entities.merchantGatewayKeys.get({ merchantAccountId: sellerId }).go({ consistent: true });
  if (!keys) throw new NotFound(`Seller ${sellerId} has no payment gateway connected: there is nothing to reconcile.`);
  return { sellerId, gateway: () => merchantPaymentGateway(sellerId, keys.sealed) };
}

/** Every seller to reconcile daily: the platform (the Pro plan), then every shop with a connected gateway. */
export async function reconcilableSellers(db: Db): Promise<ReconcilableSeller[]> {
  const { data: connected } = await db.entities.merchantGatewayKeys.query
    .connected({ listing: 'connected' })
    .go({ pages: 'all' });
  return [
    { sellerId: PLATFORM_SELLER_ID, gateway: paymentGateway },
    ...connected.map((keys) => ({
      sellerId: keys.merchantAccountId,
      gateway: () => merchantPaymentGateway(keys.merchantAccountId, keys.sealed),
    })),
  ];
}

/** Words for an operator on why a seller could not be reconciled: the error's own message, never more. */
function failureOf(error: unknown): string {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return `${error instanceof HttpError ? error.code : name}: ${message}`.slice(0, 1_000);
}

/**
 * Reconciles one seller for one window and stores the report (a failure too: a seller that could
 * not be reconciled is a report of its own, outcome 'failed', never a silent gap). Logs every
 * difference, one warning each, and a failure as an error.
 */
export async function runReconciliation(
  db: Db,
  seller: ReconcilableSeller,
  window: TimeWindow,
  options: { trigger: ReconciliationTrigger; requestedBy?: string; now?: () => Date },
): Promise<ReconciliationItem> {
  const now = options.now ?? (() => new Date());
  const started = now();
  let outcome: ReconciliationOutcome | undefined;
  let error: string | undefined;
  try {
    outcome = await reconcileSeller(db, seller.sellerId, await seller.gateway(), window);
  } catch (caught) {
    error = failureOf(caught);
    logger.error('Reconciliation failed for a seller', { sellerId: seller.sellerId, window, error });
  }
  const differences = outcome?.differences ?? [];
  for (const difference of differences) {
    logger.warn('Reconciliation difference', { sellerId: seller.sellerId, window, ...difference });
  }
  const ranAt = started.toISOString();
  const { data } = await db.entities.reconciliation
    .create({
      sellerId: seller.sellerId,
      reportId: randomUUID(),
      trigger: options.trigger,
      ...(options.requestedBy ? { requestedBy: options.requestedBy } : {}),
      windowFrom: window.from,
      windowTo: window.to,
      outcome: error !== undefined ? 'failed' : differences.length > 0 ? 'differences' : 'matched',
      recordedCharges: outcome?.counts.recordedCharges ?? 0,
      gatewayCharges: outcome?.counts.gatewayCharges ?? 0,
      subscriptions: outcome?.counts.subscriptions ?? 0,
      recordedRefunds: outcome?.counts.recordedRefunds ?? 0,
      gatewayRefunds: outcome?.counts.gatewayRefunds ?? 0,
      differenceCount: differences.length,
      differences: differences.slice(0, MAX_STORED_DIFFERENCES),
      ...(error !== undefined ? { error } : {}),
      ranAt,
      durationMs: Math.max(0, now().getTime() - started.getTime()),
      expiresAt: Math.floor(started.getTime() / 1000) + REPORT_TTL_DAYS * 86_400,
    })
    .go();
  return data;
}
