/**
 * Reconciliation, the pure part: what our table says a seller charged and billed, against what
 * the seller's gateway reports, for one window of time. No I/O here (reconciliation-run.ts reads
 * both sides and stores the report), so every rule is a unit test away.
 *
 * Five kinds of difference:
 * - charge_not_recorded: the gateway took money (MONEY_TAKEN_STATUSES) and we have no payment
 *   record of that transaction: a customer paid and our table does not show it.
 * - record_without_charge: a payment record of ours in the window whose transaction the gateway
 *   did not list (missing_at_gateway), did not take the money for (not_money_taken: declined, or
 *   voided with no completed void of ours), or took another amount or currency for
 *   (amount_differs, currency_differs). A charge voided by a void we recorded is consistent.
 * - refund_not_recorded: a refund (credit) the gateway made in the window, not voided, that no
 *   refund of ours names (by the order id it carries, our refund's key, or by its id), or whose
 *   refund of ours says it failed: money went back and our table does not show it.
 * - record_without_refund: a completed refund of ours (made in the window, or whose gateway
 *   refund is) that the gateway has no live refund for (missing_at_gateway), whose refund there is
 *   of another charge (parent_differs), another amount or currency (amount_differs,
 *   currency_differs); or a completed void whose charge the gateway does not have
 *   (missing_at_gateway) or has not voided (not_voided). Refunds still under way are left out:
 *   their outcome is the refund's own business (its claim is resumed).
 * - subscription_status_differs: a subscription whose stored status is not the gateway's, or
 *   which one side does not know at all (its status there is null).
 */
import { fromDecimalAmount } from '../../../shared/payments/money';
import { DIFFERENCE_KINDS, type DifferenceKind, type RecordMismatch } from '../../../shared/payments/reconciliation';
import {
  type GatewayListedRefund,
  type GatewayListedTransaction,
  type GatewaySubscriptionStatus,
  type GatewaySubscriptionSummary,
  isInWindow,
  MONEY_TAKEN_STATUSES,
  type TimeWindow,
  type TransactionStatus,
} from './gateway';

/** The subscription statuses that still bill (or will): the ones compared every run, whenever created. */
export const LIVE_SUBSCRIPTION_STATUSES: readonly GatewaySubscriptionStatus[] = ['Pending', 'Active', 'Past Due'];

/** Our record of a charge (a payment item), as reconciliation reads it. */
export interface RecordedCharge {
  transactionId: string;
  customerId: string;
  subscriptionId?: string;
  invoiceId?: string;
  amountMinor: number;
  currency: string;
  /** ISO 8601: the gateway's creation time of the transaction, as recorded. */
  chargedAt: string;
}

/**
 * Our record of a refund or a void of one charge, as reconciliation reads it: a Pro refund, or
 * one part of a shop's refund (one part per charge it returns money of).
 */
export interface RecordedRefund {
  /** Our refund's id (a shop's: of this part), the order id its gateway refund carries. */
  key: string;
  /** The charge it returns money of. */
  transactionId: string;
  customerId: string;
  subscriptionId?: string;
  operation: 'refund' | 'void';
  status: 'pending' | 'succeeded' | 'failed';
  amountMinor: number;
  currency: string;
  /** The gateway's id of what returned the money (a refund's credit; a void's charge), once it succeeded. */
  gatewayId?: string;
  /** ISO 8601: when it was asked for (its claim). */
  createdAt: string;
}

/** Our copy of a subscription, as reconciliation reads it. */
export interface RecordedSubscription {
  subscriptionId: string;
  customerId: string;
  status: GatewaySubscriptionStatus;
}

/** One side of a difference: a charge's status, amount, currency and time, or a subscription's status. */
export interface DifferenceSide {
  /** A transaction's status (the gateway's), or a subscription's. */
  status?: string;
  amountMinor?: number;
  currency?: string;
  /** ISO 8601: when the charge (or the refund) was made. */
  at?: string;
  /** A refund's charge: the transaction it returns money of. */
  refundOf?: string;
}

export interface ReconciliationDifference {
  kind: DifferenceKind;
  /** record_without_charge only: how the gateway's charge fails to match our record. */
  mismatch?: RecordMismatch;
  transactionId?: string;
  subscriptionId?: string;
  customerId?: string;
  /** The sale's order id at the gateway: our invoice id. */
  orderId?: string;
  /** A refund's key: our refund's id (a shop's: of one part), the order id its gateway refund carries. */
  refundId?: string;
  /** The gateway's id of the refund (credit) transaction. */
  refundTransactionId?: string;
  /** What our table says; absent when it says nothing (a charge we never recorded). */
  ours?: DifferenceSide;
  /** What the gateway says; absent when it says nothing (a charge it never made). */
  gateway?: DifferenceSide;
}

/** How much was compared: a report with no difference says what it looked at. */
export interface ReconciliationCounts {
  /** Our payment records in the window. */
  recordedCharges: number;
  /** The gateway's sales in the window that took the money. */
  gatewayCharges: number;
  /** Subscriptions compared (either side's, once each). */
  subscriptions: number;
  /** Our completed refunds and voids asked for in the window. */
  recordedRefunds: number;
  /** The gateway's refunds of the window that were not voided. */
  gatewayRefunds: number;
}

export interface ReconciliationOutcome {
  differences: ReconciliationDifference[];
  counts: ReconciliationCounts;
}

const gatewaySide = (transaction: GatewayListedTransaction): DifferenceSide => ({
  status: transaction.status,
  amountMinor: fromDecimalAmount(transaction.amount),
  currency: transaction.currency,
  at: transaction.createdAt,
});

const ourSide = (record: RecordedCharge): DifferenceSide => ({
  amountMinor: record.amountMinor,
  currency: record.currency,
  at: record.chargedAt,
});

/** Who a charge belongs to, from our record or, lacking one, the gateway's. */
function chargeIds(record: RecordedCharge | undefined, transaction: GatewayListedTransaction | undefined) {
  const subscriptionId = record?.subscriptionId ?? transaction?.subscriptionId;
  const orderId = transaction?.orderId ?? (record && !record.subscriptionId ? record.invoiceId : undefined);
  return {
    transactionId: (record?.transactionId ?? transaction?.id) as string,
    ...(subscriptionId ? { subscriptionId } : {}),
    ...(record ? { customerId: record.customerId } : {}),
    ...(orderId ? { orderId } : {}),
  };
}

function mismatchOf(
  record: RecordedCharge,
  transaction: GatewayListedTransaction | undefined,
  voidedByUs: ReadonlySet<string>,
): RecordMismatch | undefined {
  if (!transaction) return 'missing_at_gateway';
  // Voided by a void of ours that completed: the charge was given back, as our table says.
  if (transaction.status === 'voided' && voidedByUs.has(transaction.id)) return undefined;
  if (!MONEY_TAKEN_STATUSES.has(transaction.status)) return 'not_money_taken';
  if (transaction.currency !== record.currency) return 'currency_differs';
  if (fromDecimalAmount(transaction.amount) !== record.amountMinor) return 'amount_differs';
  return undefined;
}

/**
 * Our payment records against the gateway's sales of the window. `gateway` is the gateway's
 * listing of the window; `ours` holds our records of the window, and may hold records from
 * outside it too (looked up by transaction id for the gateway's charges): those count as a
 * record of that charge, and are never themselves reported, as they belong to another window.
 */
export function compareCharges(input: {
  window: TimeWindow;
  ours: readonly RecordedCharge[];
  gateway: readonly GatewayListedTransaction[];
  /** Charges a completed void of ours gave back (their status at the gateway is then voided). */
  voidedByUs?: ReadonlySet<string>;
}): ReconciliationDifference[] {
  const voidedByUs = input.voidedByUs ?? new Set<string>();
  const gatewayCharges = input.gateway.filter((transaction) => isInWindow(transaction.createdAt, input.window));
  const gatewayById = new Map(gatewayCharges.map((transaction) => [transaction.id, transaction]));
  const oursById = new Map(input.ours.map((record) => [record.transactionId, record]));
  const differences: ReconciliationDifference[] = [];

  for (const transaction of gatewayCharges) {
    if (!MONEY_TAKEN_STATUSES.has(transaction.status) || oursById.has(transaction.id)) continue;
    differences.push({ kind: 'charge_not_recorded', ...chargeIds(undefined, transaction), gateway: gatewaySide(transaction) });
  }
  for (const record of oursById.values()) {
    const transaction = gatewayById.get(record.transactionId);
    // A record from outside the window whose charge is not in it either: another window's business.
    if (!transaction && !isInWindow(record.chargedAt, input.window)) continue;
    const mismatch = mismatchOf(record, transaction, voidedByUs);
    if (!mismatch) continue;
    differences.push({
      kind: 'record_without_charge',
      mismatch,
      ...chargeIds(record, transaction),
      ours: ourSide(record),
      ...(transaction ? { gateway: gatewaySide(transaction) } : {}),
    });
  }
  return differences;
}

const refundGatewaySide = (credit: GatewayListedRefund): DifferenceSide => ({
  status: credit.status,
  amountMinor: fromDecimalAmount(credit.amount),
  currency: credit.currency,
  at: credit.createdAt,
  refundOf: credit.refundedTransactionId,
});

const refundOurSide = (refund: RecordedRefund): DifferenceSide => ({
  status: refund.status,
  amountMinor: refund.amountMinor,
  currency: refund.currency,
  at: refund.createdAt,
  refundOf: refund.transactionId,
});

function refundMismatchOf(refund: RecordedRefund, credit: GatewayListedRefund | undefined): RecordMismatch | undefined {
  if (!credit || credit.status === 'voided') return 'missing_at_gateway';
  if (credit.refundedTransactionId !== refund.transactionId) return 'parent_differs';
  if (credit.currency !== refund.currency) return 'currency_differs';
  if (fromDecimalAmount(credit.amount) !== refund.amountMinor) return 'amount_differs';
  return undefined;
}

/**
 * Our refunds and voids against the gateway's refunds of the window. `gateway` holds the
 * gateway's refunds of the window and may hold others (found by the key of a refund of ours);
 * `ours` holds our refunds asked for in the window and may hold others (found by the order id of
 * a gateway refund): those are compared only with what they are found for. `chargeStatuses` is
 * the gateway's status now of the charge of each completed void of ours (null: unknown to it).
 */
export function compareRefunds(input: {
  window: TimeWindow;
  ours: readonly RecordedRefund[];
  gateway: readonly GatewayListedRefund[];
  chargeStatuses: ReadonlyMap<string, TransactionStatus | null>;
}): ReconciliationDifference[] {
  const inWindow = (at: string) => isInWindow(at, input.window);
  const oursByKey = new Map(input.ours.map((refund) => [refund.key, refund]));
  const oursByGatewayId = new Map(
    input.ours.flatMap((refund) =>
      refund.operation === 'refund' && refund.gatewayId ? [[refund.gatewayId, refund] as const] : [],
    ),
  );
  const gatewayByKey = new Map(input.gateway.flatMap((credit) => (credit.orderId ? [[credit.orderId, credit] as const] : [])));
  const gatewayById = new Map(input.gateway.map((credit) => [credit.id, credit]));
  const differences: ReconciliationDifference[] = [];

  for (const credit of input.gateway) {
    if (!inWindow(credit.createdAt) || credit.status === 'voided') continue;
    const ours = (credit.orderId ? oursByKey.get(credit.orderId) : undefined) ?? oursByGatewayId.get(credit.id);
    // Ours completed (compared below), or still under way: its claim settles what it did.
    if (ours && ours.status !== 'failed') continue;
    differences.push({
      kind: 'refund_not_recorded',
      transactionId: credit.refundedTransactionId,
      ...(ours ? { customerId: ours.customerId, refundId: ours.key } : credit.orderId ? { refundId: credit.orderId } : {}),
      refundTransactionId: credit.id,
      ...(ours ? { ours: refundOurSide(ours) } : {}),
      gateway: refundGatewaySide(credit),
    });
  }

  for (const refund of input.ours) {
    if (refund.status !== 'succeeded') continue;
    const ids = {
      transactionId: refund.transactionId,
      ...(refund.subscriptionId ? { subscriptionId: refund.subscriptionId } : {}),
      customerId: refund.customerId,
      refundId: refund.key,
    };
    if (refund.operation === 'void') {
      if (!inWindow(refund.createdAt)) continue;
      const status = input.chargeStatuses.get(refund.transactionId) ?? null;
      if (status === 'voided') continue;
      differences.push({
        kind: 'record_without_refund',
        mismatch: status === null ? 'missing_at_gateway' : 'not_voided',
        ...ids,
        ours: refundOurSide(refund),
        ...(status !== null ? { gateway: { status } } : {}),
      });
      continue;
    }
    const credit = gatewayByKey.get(refund.key) ?? (refund.gatewayId ? gatewayById.get(refund.gatewayId) : undefined);
    // Asked for in another window, and its gateway refund is not in this one: another window's business.
    if (!inWindow(refund.createdAt) && !(credit && inWindow(credit.createdAt))) continue;
    const mismatch = refundMismatchOf(refund, credit);
    if (!mismatch) continue;
    differences.push({
      kind: 'record_without_refund',
      mismatch,
      ...ids,
      ...(credit ? { refundTransactionId: credit.id } : {}),
      ours: refundOurSide(refund),
      ...(credit ? { gateway: refundGatewaySide(credit) } : {}),
    });
  }
  return differences;
}

/**
 * Our subscriptions against the gateway's. Each side holds every subscription it knows of among
 * the ones compared (the caller looks each one up on the other side); one a side does not hold
 * is one it does not know, and its status there is null.
 */
export function compareSubscriptions(input: {
  ours: readonly RecordedSubscription[];
  gateway: readonly GatewaySubscriptionSummary[];
}): ReconciliationDifference[] {
  const oursById = new Map(input.ours.map((subscription) => [subscription.subscriptionId, subscription]));
  const gatewayById = new Map(input.gateway.map((subscription) => [subscription.id, subscription]));
  const ids = [...new Set([...oursById.keys(), ...gatewayById.keys()])];
  const differences: ReconciliationDifference[] = [];
  for (const id of ids) {
    const ours = oursById.get(id);
    const gateway = gatewayById.get(id);
    if (ours?.status === gateway?.status) continue;
    differences.push({
      kind: 'subscription_status_differs',
      subscriptionId: id,
      ...(ours ? { customerId: ours.customerId, ours: { status: ours.status } } : {}),
      ...(gateway ? { gateway: { status: gateway.status } } : {}),
    });
  }
  return differences;
}

const sortKeyOf = (difference: ReconciliationDifference) =>
  [
    DIFFERENCE_KINDS.indexOf(difference.kind),
    difference.gateway?.at ?? difference.ours?.at ?? '',
    difference.transactionId ?? '',
    difference.subscriptionId ?? '',
  ].join('\u0000');

/** Both comparisons, their differences in a stable order (by kind, then time, then id), and what was compared. */
export function reconcile(input: {
  window: TimeWindow;
  recordedCharges: readonly RecordedCharge[];
  gatewayCharges: readonly GatewayListedTransaction[];
  recordedSubscriptions: readonly RecordedSubscription[];
  gatewaySubscriptions: readonly GatewaySubscriptionSummary[];
  recordedRefunds?: readonly RecordedRefund[];
  gatewayRefunds?: readonly GatewayListedRefund[];
  /** The gateway's status of the charge of each completed void of ours (null: unknown to it). */
  voidedChargeStatuses?: ReadonlyMap<string, TransactionStatus | null>;
  /** Charges the gateway says are voided for which we recorded a completed void. */
  voidedByUs?: ReadonlySet<string>;
}): ReconciliationOutcome {
  const recordedRefunds = input.recordedRefunds ?? [];
  const gatewayRefunds = input.gatewayRefunds ?? [];
  const differences = [
    ...compareCharges({
      window: input.window,
      ours: input.recordedCharges,
      gateway: input.gatewayCharges,
      ...(input.voidedByUs ? { voidedByUs: input.voidedByUs } : {}),
    }),
    ...compareRefunds({
      window: input.window,
      ours: recordedRefunds,
      gateway: gatewayRefunds,
      chargeStatuses: input.voidedChargeStatuses ?? new Map(),
    }),
    ...compareSubscriptions({ ours: input.recordedSubscriptions, gateway: input.gatewaySubscriptions }),
  ]
    .map((difference) => ({ difference, key: sortKeyOf(difference) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ difference }) => difference);
  const subscriptionIds = new Set([
    ...input.recordedSubscriptions.map((subscription) => subscription.subscriptionId),
    ...input.gatewaySubscriptions.map((subscription) => subscription.id),
  ]);
  return {
    differences,
    counts: {
      recordedCharges: input.recordedCharges.filter((record) => isInWindow(record.chargedAt, input.window)).length,
      gatewayCharges: input.gatewayCharges.filter(
        (transaction) => MONEY_TAKEN_STATUSES.has(transaction.status) && isInWindow(transaction.createdAt, input.window),
      ).length,
      subscriptions: subscriptionIds.size,
      recordedRefunds: recordedRefunds.filter(
        (refund) => refund.status === 'succeeded' && isInWindow(refund.createdAt, input.window),
      ).length,
      gatewayRefunds: gatewayRefunds.filter((credit) => credit.status !== 'voided' && isInWindow(credit.createdAt, input.window))
        .length,
    },
  };
}

const DAY_MS = 86_400_000;
/**
 * How long after a day ends the daily run waits before reconciling it: a checkout writes its
 * records seconds after the gateway charged, and a renewal's webhook arrives within minutes.
 */
export const SETTLE_MS = 15 * 60_000;
/** The longest window one run compares (the on-demand route's limit: it answers within API Gateway's 29 seconds). */
export const MAX_WINDOW_DAYS = 31;

const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * The daily run's window: the last whole UTC day that ended at least SETTLE_MS ago. Runs a day
 * apart reconcile consecutive days, whatever time of day the schedule fires.
 */
export function dailyWindow(now: Date): TimeWindow {
  const to = startOfUtcDay(now.getTime() - SETTLE_MS);
  return { from: new Date(to - DAY_MS).toISOString(), to: new Date(to).toISOString() };
}

/** The on-demand default: the 24 hours up to now. */
export function lastDayWindow(now: Date): TimeWindow {
  return { from: new Date(now.getTime() - DAY_MS).toISOString(), to: now.toISOString() };
}

/** Why a window cannot be reconciled, in words for the person who asked; undefined when it can. */
export function windowProblem(window: TimeWindow): string | undefined {
  const from = Date.parse(window.from);
  const to = Date.parse(window.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return 'The window needs ISO 8601 times, such as 2024-05-01T00:00:00Z.';
  if (to <= from) return 'The window must end after it starts.';
  if (to - from > MAX_WINDOW_DAYS * DAY_MS)
    return `A window spans ${MAX_WINDOW_DAYS} days at most; reconcile a longer time in parts.`;
  return undefined;
}
