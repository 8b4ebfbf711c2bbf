/**
 * A store refund's records: reading an order's refunds, the views of them, and the one write
 * that ends a refund (succeeded or failed), which also settles the order's reservation and moves
 * the dashboards' figures, in one transaction, under a condition on the refund's claim: however
 * many requests finish the same refund, exactly one of them writes (and then tells) it.
 */
import type { MerchantOrderRefundsView, RefundView } from '../../../shared/schemas/store';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import { figureDayOf } from './sales-ledger';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import type { StoreRefundItem } from '../../lib/db/entities/store-refund';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { NotFound } from '../../lib/errors';
import { figureScopesOf, linePaidMinor, type RefundPart, scaleLineRefunds } from './refund-plan';

/** Another merchant's order is as absent as a made-up id. */
export class StoreOrderNotFound extends NotFound {
  constructor() {
    super('No such order.');
  }
}

export async function readOrder(db: Db, invoiceId: string): Promise<StoreOrderItem | null> {
  const { data } = await db.entities.storeOrder.get({ invoiceId }).go({ consistent: true });
  return data;
}

/** The order of one of the merchant's sales; anyone else's is a 404. */
export async function readMerchantOrder(db: Db, merchantAccountId: string, invoiceId: string): Promise<StoreOrderItem> {
  const order = await readOrder(db, invoiceId);
  if (!order || order.merchantAccountId !== merchantAccountId) throw new StoreOrderNotFound();
  return order;
}

/** An order's refunds, oldest first. One Query. */
export async function readRefunds(db: Db, invoiceId: string): Promise<StoreRefundItem[]> {
  const { data } = await db.entities.storeRefund.query.byInvoice({ invoiceId }).go({ consistent: true, pages: 'all' });
  return data.sort((a, b) => a.number - b.number);
}

export async function readRefund(db: Db, invoiceId: string, number: number): Promise<StoreRefundItem | null> {
  const { data } = await db.entities.storeRefund.get({ invoiceId, number }).go({ consistent: true });
  return data;
}

export function toRefundView(refund: StoreRefundItem, order: Pick<StoreOrderItem, 'lines'>): RefundView {
  const money = (amountMinor: number) => ({ amountMinor, currency: refund.currency });
  return {
    refundId: refund.refundId,
    number: refund.number,
    status: refund.status,
    scope: refund.scope,
    amount: money(refund.amountMinor),
    reason: refund.reason,
    lines: (refund.scope === 'amount' ? [] : (refund.lineIndexes ?? [])).flatMap((index) => {
      const line = order.lines[index];
      return line ? [{ description: line.description, quantity: line.quantity, amount: money(linePaidMinor(line)) }] : [];
    }),
    operations: refund.parts
      .filter((part) => part.status !== 'failed')
      .map((part) => ({ kind: part.operation, amount: money(part.amountMinor) })),
    canceledSubscriptions: refund.canceledSubscriptions ?? 0,
    failure: refund.failure ?? null,
    createdAt: refund.createdAt,
    completedAt: refund.completedAt ?? null,
  };
}

export function toMerchantOrderRefundsView(order: StoreOrderItem, refunds: readonly StoreRefundItem[]): MerchantOrderRefundsView {
  const money = (amountMinor: number) => ({ amountMinor, currency: order.currency });
  const refundedGrades = new Set(order.refundedGradeIds ?? []);
  const refunded = order.refundedMinor ?? 0;
  return {
    invoiceId: order.invoiceId,
    lines: order.lines.map((line, index) => ({
      index,
      productStockGradeId: line.productStockGradeId,
      description: line.description,
      billing: line.billing,
      quantity: line.quantity,
      amount: money(linePaidMinor(line)),
      refunded: refundedGrades.has(line.productStockGradeId),
    })),
    total: money(order.totalMinor),
    refunded: money(refunded),
    left: money(Math.max(0, order.totalMinor - refunded)),
    paidAt: order.paidAt,
    refunds: refunds.map((refund) => toRefundView(refund, order)),
  };
}

export interface RefundOutcome {
  parts: RefundPart[];
  /** The gateway's refusal that stopped the refund, in the merchant's words. */
  failure: string | null;
  now: Date;
}

/**
 * Ends the claimed refund with what reached the gateway: succeeded when any part did (its amount
 * is then what was returned), failed when none did. What was reserved and not returned goes back
 * to the order; what was returned comes off the revenue of the day, with a refund counted. The
 * ended refund when this call ended it; null when another attempt had (nothing written).
 */
export async function endRefund(db: Db, refund: StoreRefundItem, outcome: RefundOutcome): Promise<StoreRefundItem | null> {
  const returned = outcome.parts.filter((part) => part.status === 'succeeded').reduce((sum, part) => sum + part.amountMinor, 0);
  const released = refund.amountMinor - returned;
  const at = outcome.now.toISOString();
  // A refund cut short by a refusal part way keeps its lines' shares, scaled to what it returned,
  // so its products and grades lose what the shop does (one made before refunds were split by
  // line has no shares: the shop's figures only).
  const lineRefunds = released === 0 || !refund.lineRefunds ? refund.lineRefunds : scaleLineRefunds(refund.lineRefunds, returned);
  const scopes =
    returned === 0
      ? []
      : released === 0
        ? (refund.figureScopes ?? [])
        : lineRefunds
          ? figureScopesOf(returned, lineRefunds)
          : [{ scope: 'shop', amountMinor: returned }];
  const ended: StoreRefundItem = {
    ...refund,
    status: returned > 0 ? 'succeeded' : 'failed',
    parts: outcome.parts,
    amountMinor: returned > 0 ? returned : refund.amountMinor,
    ...(lineRefunds ? { lineRefunds } : {}),
    ...(outcome.failure ? { failure: outcome.failure } : {}),
    completedAt: at,
    updatedAt: at,
  };
  const gradeIds = released === 0 ? (refund.gradeIds ?? []) : [];
  const period = figureDayOf(at);
  return retryContendedWrite({ what: 'refunding orders' }, async () => {
    const result = await db.transaction
      .write(({ storeRefund, storeOrder, storeFigure }) => [
        storeRefund
          .patch({ invoiceId: refund.invoiceId, number: refund.number })
          .set({
            status: ended.status,
            parts: ended.parts,
            amountMinor: ended.amountMinor,
            ...(lineRefunds ? { lineRefunds } : {}),
            completedAt: at,
            updatedAt: at,
            ...(outcome.failure ? { failure: outcome.failure } : {}),
          })
          .where((attributes, { eq }) => `${eq(attributes.status, 'pending')} AND ${eq(attributes.attempt, refund.attempt)}`)
          .commit(),
        ...(released > 0 || gradeIds.length > 0
          ? [
              gradeIds.length > 0
                ? storeOrder
                    .patch({ invoiceId: refund.invoiceId })
                    .add({ refundedMinor: -released })
                    .append({ refundedGradeIds: gradeIds })
                    .commit()
                : storeOrder.patch({ invoiceId: refund.invoiceId }).add({ refundedMinor: -released }).commit(),
            ]
          : []),
        ...scopes.map(({ scope, amountMinor }) =>
          storeFigure
            .update({ merchantAccountId: refund.merchantAccountId, scope, period })
            .add({ revenueMinor: -amountMinor, refundsMinor: amountMinor, refunds: 1 })
            .commit(),
        ),
      ])
      .go();
    if (!result.canceled) return ended;
    if (failedConditions(result).includes(0)) return null;
    return lostRace(result);
  });
}
