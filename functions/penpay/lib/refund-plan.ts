/**
 * What a refund asked for means at the gateway, decided before anything is claimed: which of the
 * order's charges it returns, how much of each, and how (Braintree's rule: a settled or settling
 * charge is refunded, whole or in part; one not settled yet can only be voided, whole). Also what
 * the order keeps of it (the grades refunded item-wise) and which figures it takes revenue off.
 *
 * An order is paid in several charges: its one-time lines in one sale, each subscription line in
 * its subscription's first charge (store-charges.ts). A refund of lines returns them from their
 * own charges; a refund of an amount takes from the settled charges first.
 *
 * Every refund, whatever it names, is also split over the order's lines (`lineRefunds`): a line
 * or the whole returns what each line has left, an amount is shared in proportion to what each
 * line has left. So the product and grade dashboards move with the shop's by the same amounts,
 * and what a line has left is always known for the next refund.
 */
import type { RefundOrderBody } from '../../../shared/schemas/store';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import type { StoreRefundItem } from '../../lib/db/entities/store-refund';
import { gradeScope, productScope, shopScope } from '../../lib/db/entities/store-figures';
import { BadRequest, HttpError } from '../../lib/errors';
import { REFUNDABLE_STATUSES, type TransactionStatus } from '../../lib/payments/gateway';
import { isReturnable, operationFor, RefundTooLarge } from '../../lib/payments/refund-rules';

/** One charge of the order, as the gateway has it now, and the order's lines it paid for. */
export interface OrderCharge {
  transactionId: string;
  /** Set for a subscription's first charge. */
  subscriptionId?: string;
  amountMinor: number;
  status: TransactionStatus;
  lineIndexes: number[];
}

export type RefundPart = StoreRefundItem['parts'][number];
/** What a refund returns of one of the order's lines, with the product and grade it takes revenue off. */
export type LineRefund = NonNullable<StoreRefundItem['lineRefunds']>[number];
type FigureScope = { scope: string; amountMinor: number };

export interface RefundPlan {
  scope: 'whole' | 'amount' | 'items';
  amountMinor: number;
  lineIndexes: number[];
  gradeIds: string[];
  parts: RefundPart[];
  lineRefunds: LineRefund[];
  figureScopes: FigureScope[];
  fingerprint: string;
}

/** The same request asked again finds the same refund: everything that decides what it does. */
export function fingerprintOf(body: RefundOrderBody): string {
  return JSON.stringify({
    amountMinor: body.amountMinor ?? null,
    lineIndexes: body.lineIndexes ? [...body.lineIndexes].sort((a, b) => a - b) : null,
    productStockGradeIds: body.productStockGradeIds ? [...body.productStockGradeIds].sort() : null,
    reason: body.reason,
    cancelSubscription: body.cancelSubscription ?? false,
  });
}

type OrderLine = StoreOrderItem['lines'][number];

/** What the customer paid for a line: all its units, less what a discount code took off it. */
export const linePaidMinor = (line: Pick<OrderLine, 'unitPriceMinor' | 'quantity' | 'discountMinor'>) =>
  line.unitPriceMinor * line.quantity - (line.discountMinor ?? 0);

/**
 * `amountMinor` in whole minor units shared in proportion to `weights`: each share rounded down,
 * what rounding left over given to the largest weight first (never past its weight while the
 * amount fits), so the shares add up to the amount exactly. All zeros when every weight is zero.
 */
export function splitByWeights(amountMinor: number, weights: readonly number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + Math.max(0, weight), 0);
  if (total === 0) return weights.map(() => 0);
  const shares = weights.map((weight) => Math.floor((amountMinor * Math.max(0, weight)) / total));
  let remainder = amountMinor - shares.reduce((sum, share) => sum + share, 0);
  const largestFirst = weights.map((_, index) => index).sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0) || a - b);
  for (const index of largestFirst) {
    if (remainder === 0) break;
    const room = amountMinor <= total ? Math.max(0, (weights[index] ?? 0) - (shares[index] ?? 0)) : remainder;
    const given = Math.min(remainder, room);
    shares[index] = (shares[index] ?? 0) + given;
    remainder -= given;
  }
  return shares;
}

/**
 * What each of the order's lines has had refunded so far (refunds not failed; a pending one's
 * amounts are reserved). A refund recorded before refunds were split by line counts by the grades
 * it took revenue off, else in proportion to what each line paid.
 */
export function refundedPerLine(order: Pick<StoreOrderItem, 'lines'>, refunds: readonly StoreRefundItem[]): number[] {
  const refunded = order.lines.map(() => 0);
  for (const refund of refunds) {
    if (refund.status === 'failed') continue;
    const byLine = refund.lineRefunds
      ? order.lines.map((_, index) =>
          (refund.lineRefunds ?? []).filter((entry) => entry.index === index).reduce((sum, entry) => sum + entry.amountMinor, 0),
        )
      : legacyLineShares(order, refund);
    byLine.forEach((amountMinor, index) => (refunded[index] = (refunded[index] ?? 0) + amountMinor));
  }
  return refunded;
}

function legacyLineShares(order: Pick<StoreOrderItem, 'lines'>, refund: StoreRefundItem): number[] {
  const byGrade = new Map((refund.figureScopes ?? []).map((entry) => [entry.scope, entry.amountMinor]));
  const named = order.lines.map((line) => byGrade.get(gradeScope(line.productStockGradeId)) ?? 0);
  if (named.some((amountMinor) => amountMinor > 0)) return named;
  return splitByWeights(refund.amountMinor, order.lines.map(linePaidMinor));
}

/** The order's lines as refunded by `amounts` (one per line; lines given nothing are left out). */
function lineRefundsOf(order: Pick<StoreOrderItem, 'lines'>, amounts: readonly number[]): LineRefund[] {
  return order.lines.flatMap((line, index) => {
    const amountMinor = amounts[index] ?? 0;
    return amountMinor > 0
      ? [{ index, productStockId: line.productStockId, productStockGradeId: line.productStockGradeId, amountMinor }]
      : [];
  });
}

/**
 * Revenue per figure scope a refund of `amountMinor` takes off: all of it off the shop's, and
 * each line's share off its product's and its grade's.
 */
export function figureScopesOf(amountMinor: number, lineRefunds: readonly LineRefund[]): FigureScope[] {
  const amounts = new Map<string, number>([[shopScope, amountMinor]]);
  for (const line of lineRefunds) {
    for (const scope of [productScope(line.productStockId), gradeScope(line.productStockGradeId)]) {
      amounts.set(scope, (amounts.get(scope) ?? 0) + line.amountMinor);
    }
  }
  return [...amounts].map(([scope, amount]) => ({ scope, amountMinor: amount })).filter((entry) => entry.amountMinor > 0);
}

/** A refund's line shares scaled to what it actually returned (a refund cut short by a refusal part way). */
export function scaleLineRefunds(lineRefunds: readonly LineRefund[], returnedMinor: number): LineRefund[] {
  const shares = splitByWeights(
    returnedMinor,
    lineRefunds.map((line) => line.amountMinor),
  );
  return lineRefunds.map((line, index) => ({ ...line, amountMinor: shares[index] ?? 0 })).filter((line) => line.amountMinor > 0);
}

/** What each charge has left to return: its amount less the parts of refunds not failed. */
function leftOf(charge: OrderCharge, refunds: readonly StoreRefundItem[]): number {
  if (!isReturnable(charge.status)) return 0;
  const taken = refunds
    .filter((refund) => refund.status !== 'failed')
    .flatMap((refund) => refund.parts)
    .filter((part) => part.transactionId === charge.transactionId && part.status !== 'failed')
    .reduce((sum, part) => sum + part.amountMinor, 0);
  return Math.max(0, charge.amountMinor - taken);
}

/** A part of `amountMinor` taken from `charge` (of which `left` remains): a refund, or the void of all of it. */
function partOf(charge: OrderCharge, amountMinor: number, left: number, currency: string): RefundPart {
  const base = {
    transactionId: charge.transactionId,
    ...(charge.subscriptionId ? { subscriptionId: charge.subscriptionId } : {}),
    amountMinor,
    status: 'pending' as const,
  };
  return { ...base, operation: operationFor(charge, amountMinor, left, currency) };
}

/** The lines a refund of items names, by index or by grade; 400 for one the order does not have. */
function chosenLines(order: StoreOrderItem, body: RefundOrderBody): number[] {
  if (body.lineIndexes) {
    for (const index of body.lineIndexes) {
      if (!order.lines[index]) throw new BadRequest(`This order has no line ${index + 1}: it has ${order.lines.length}.`);
    }
    return [...new Set(body.lineIndexes)].sort((a, b) => a - b);
  }
  const indexes = (body.productStockGradeIds ?? []).map((gradeId) => {
    const index = order.lines.findIndex((line) => line.productStockGradeId === gradeId);
    if (index < 0) throw new BadRequest(`This order has no line of grade ${gradeId}.`);
    return index;
  });
  return [...new Set(indexes)].sort((a, b) => a - b);
}

/**
 * The refund `body` asks for, against the order's charges and its refunds so far (pending ones
 * included: their amounts are reserved). Throws RefundTooLarge, PaymentNotSettled (functions/lib/payments/refund-rules.ts), BadRequest,
 * or a 409 for a line refunded already.
 */
export function planRefund(
  order: StoreOrderItem,
  charges: readonly OrderCharge[],
  refunds: readonly StoreRefundItem[],
  body: RefundOrderBody,
): RefundPlan {
  const chosen = [body.amountMinor, body.lineIndexes, body.productStockGradeIds].filter((value) => value !== undefined);
  if (chosen.length > 1) {
    throw new BadRequest(
      'Refund either an amount or chosen lines (by index or by grade), not both; nothing of them refunds the whole.',
    );
  }
  const { currency } = order;
  const leftOfOrder = order.totalMinor - (order.refundedMinor ?? 0);
  const fingerprint = fingerprintOf(body);
  const refundedGrades = new Set([
    ...(order.refundedGradeIds ?? []),
    ...refunds.filter((refund) => refund.status === 'pending').flatMap((refund) => refund.gradeIds ?? []),
  ]);
  const lefts = new Map(charges.map((charge) => [charge.transactionId, leftOf(charge, refunds)]));
  const left = (charge: OrderCharge) => lefts.get(charge.transactionId) ?? 0;
  const refundedOfLines = refundedPerLine(order, refunds);
  const lineLefts = order.lines.map((line, index) => Math.max(0, linePaidMinor(line) - (refundedOfLines[index] ?? 0)));

  if (body.lineIndexes || body.productStockGradeIds) {
    const indexes = chosenLines(order, body);
    const again = indexes.map((index) => order.lines[index]).find((line) => line && refundedGrades.has(line.productStockGradeId));
    if (again) throw new RefundConflict(`${again.description} was refunded already.`);
    // A line returns what it has left: an earlier refund of an amount may have taken part of it.
    const spent = indexes.find((index) => lineLefts[index] === 0);
    if (spent !== undefined) throw new RefundConflict(`${order.lines[spent]?.description ?? 'This line'} was refunded already.`);
    const parts = charges.flatMap((charge) => {
      const mine = indexes.filter((index) => charge.lineIndexes.includes(index));
      if (mine.length === 0) return [];
      const amountMinor = mine.reduce((sum, index) => sum + (lineLefts[index] ?? 0), 0);
      if (amountMinor > left(charge)) throw new RefundTooLarge(Math.min(leftOfOrder, left(charge)), currency);
      return [partOf(charge, amountMinor, left(charge), currency)];
    });
    const amountMinor = parts.reduce((sum, part) => sum + part.amountMinor, 0);
    if (parts.length === 0 || amountMinor === 0)
      throw new BadRequest('The lines chosen were paid by no charge that can be refunded.');
    if (amountMinor > leftOfOrder) throw new RefundTooLarge(leftOfOrder, currency);
    const lineRefunds = lineRefundsOf(
      order,
      order.lines.map((_, index) => (indexes.includes(index) ? (lineLefts[index] ?? 0) : 0)),
    );
    return {
      scope: 'items',
      amountMinor,
      lineIndexes: indexes,
      gradeIds: [...new Set(indexes.map((index) => order.lines[index]?.productStockGradeId ?? ''))].filter(Boolean),
      parts,
      lineRefunds,
      figureScopes: figureScopesOf(amountMinor, lineRefunds),
      fingerprint,
    };
  }

  if (body.amountMinor !== undefined) {
    if (body.amountMinor > leftOfOrder) throw new RefundTooLarge(leftOfOrder, currency);
    // Settled charges first: they can be refunded in part, where an unsettled one can only be voided whole.
    const ordered = [...charges].sort(
      (a, b) => Number(REFUNDABLE_STATUSES.has(b.status)) - Number(REFUNDABLE_STATUSES.has(a.status)),
    );
    let remaining = body.amountMinor;
    const parts: RefundPart[] = [];
    for (const charge of ordered) {
      if (remaining === 0) break;
      const take = Math.min(remaining, left(charge));
      if (take === 0) continue;
      parts.push(partOf(charge, take, left(charge), currency));
      remaining -= take;
    }
    if (remaining > 0) throw new RefundTooLarge(body.amountMinor - remaining, currency);
    // Shared over the lines by what each has left, so each product and grade loses its part of it.
    const lineRefunds = lineRefundsOf(order, splitByWeights(body.amountMinor, lineLefts));
    return {
      scope: 'amount',
      amountMinor: body.amountMinor,
      lineIndexes: [],
      gradeIds: [],
      parts,
      lineRefunds,
      figureScopes: figureScopesOf(body.amountMinor, lineRefunds),
      fingerprint,
    };
  }

  const parts = charges
    .filter((charge) => left(charge) > 0)
    .map((charge) => partOf(charge, left(charge), left(charge), currency));
  const amountMinor = parts.reduce((sum, part) => sum + part.amountMinor, 0);
  if (amountMinor === 0 || leftOfOrder <= 0) throw new RefundTooLarge(0, currency);
  const allLines = order.lines.map((_, index) => index);
  // Each line returns what it has left (all it paid, when nothing was refunded before).
  const lineRefunds = lineRefundsOf(order, splitByWeights(amountMinor, lineLefts));
  return {
    scope: 'whole',
    amountMinor,
    lineIndexes: allLines,
    gradeIds: [...new Set(order.lines.map((line) => line.productStockGradeId))].filter((id) => !refundedGrades.has(id)),
    parts,
    lineRefunds,
    figureScopes: figureScopesOf(amountMinor, lineRefunds),
    fingerprint,
  };
}

/** A refund that cannot be made as asked because of what the order holds now (409, nothing refunded). */
export class RefundConflict extends HttpError {
  constructor(message: string) {
    super(409, 'CONFLICT', message);
  }
}
