/**
 * What a refund asked for means at the gateway, decided before anything is claimed: which of the
 * order's charges it returns, how much of each, and how (Braintree's rule: a settled or settling
 * charge is refunded, whole or in part; one not settled yet can only be voided, whole). Also what
 * the order keeps of it (the grades refunded item-wise) and which figures it takes revenue off.
 *
 * An order is paid in several charges: its one-time lines in one sale, each subscription line in
 * its subscription's first charge (store-charges.ts). A refund of lines returns them from their
 * own charges; a refund of an amount takes from the settled charges first.
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

export interface RefundPlan {
  scope: 'whole' | 'amount' | 'items';
  amountMinor: number;
  lineIndexes: number[];
  gradeIds: string[];
  parts: RefundPart[];
  figureScopes: { scope: string; amountMinor: number }[];
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

/**
 * What the customer paid for a line: its units at their price, less what a discount code took off
 * it. A line refunded whole returns this, not its list price: the code's saving was never paid.
 */
export const paidForLine = (line: Pick<StoreOrderItem['lines'][number], 'unitPriceMinor' | 'quantity' | 'discountMinor'>) =>
  line.unitPriceMinor * line.quantity - (line.discountMinor ?? 0);

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

/** Revenue per scope of the lines refunded whole: the shop, and each line's product and grade. */
function lineScopes(order: StoreOrderItem, indexes: readonly number[]): { scope: string; amountMinor: number }[] {
  const amounts = new Map<string, number>();
  for (const index of indexes) {
    const line = order.lines[index];
    if (!line) continue;
    for (const scope of [shopScope, productScope(line.productStockId), gradeScope(line.productStockGradeId)]) {
      amounts.set(scope, (amounts.get(scope) ?? 0) + paidForLine(line));
    }
  }
  return [...amounts].map(([scope, amountMinor]) => ({ scope, amountMinor }));
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

  if (body.lineIndexes || body.productStockGradeIds) {
    const indexes = chosenLines(order, body);
    const again = indexes.map((index) => order.lines[index]).find((line) => line && refundedGrades.has(line.productStockGradeId));
    if (again) throw new RefundConflict(`${again.description} was refunded already.`);
    const parts = charges.flatMap((charge) => {
      const mine = indexes.filter((index) => charge.lineIndexes.includes(index));
      if (mine.length === 0) return [];
      const amountMinor = mine.reduce(
        (sum, index) => sum + paidForLine(order.lines[index] ?? { unitPriceMinor: 0, quantity: 0 }),
        0,
      );
      if (amountMinor > left(charge)) throw new RefundTooLarge(Math.min(leftOfOrder, left(charge)), currency);
      return [partOf(charge, amountMinor, left(charge), currency)];
    });
    const amountMinor = parts.reduce((sum, part) => sum + part.amountMinor, 0);
    if (parts.length === 0 || amountMinor === 0)
      throw new BadRequest('The lines chosen were paid by no charge that can be refunded.');
    if (amountMinor > leftOfOrder) throw new RefundTooLarge(leftOfOrder, currency);
    return {
      scope: 'items',
      amountMinor,
      lineIndexes: indexes,
      gradeIds: [...new Set(indexes.map((index) => order.lines[index]?.productStockGradeId ?? ''))].filter(Boolean),
      parts,
      figureScopes: lineScopes(order, indexes),
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
    return {
      scope: 'amount',
      amountMinor: body.amountMinor,
      lineIndexes: [],
      gradeIds: [],
      parts,
      figureScopes: [{ scope: shopScope, amountMinor: body.amountMinor }],
      fingerprint,
    };
  }

  const parts = charges
    .filter((charge) => left(charge) > 0)
    .map((charge) => partOf(charge, left(charge), left(charge), currency));
  const amountMinor = parts.reduce((sum, part) => sum + part.amountMinor, 0);
  if (amountMinor === 0 || leftOfOrder <= 0) throw new RefundTooLarge(0, currency);
  const allLines = order.lines.map((_, index) => index);
  // Refunded whole from the start, every line's product and grade loses its revenue; after earlier refunds of unknown lines, the shop's only.
  const untouched = (order.refundedMinor ?? 0) === 0;
  return {
    scope: 'whole',
    amountMinor,
    lineIndexes: allLines,
    gradeIds: [...new Set(order.lines.map((line) => line.productStockGradeId))].filter((id) => !refundedGrades.has(id)),
    parts,
    figureScopes: untouched ? lineScopes(order, allLines) : [{ scope: shopScope, amountMinor }],
    fingerprint,
  };
}

/** A refund that cannot be made as asked because of what the order holds now (409, nothing refunded). */
export class RefundConflict extends HttpError {
  constructor(message: string) {
    super(409, 'CONFLICT', message);
  }
}
