/**
 * Whether a buyer may download a file their order's grade delivers: the one rule the orders list
 * and the download route both answer by. A refund withdraws access (the refunds side writes
 * `refundedMinor` and `refundedGradeIds` on the order); a subscription grade's files follow the
 * subscription's entitlement; then the purchase's downloads must not be spent.
 */
import type { DownloadAccess } from '../../../shared/schemas/digital-products';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';

type RefundFields = Pick<StoreOrderItem, 'totalMinor' | 'refundedMinor' | 'refundedGradeIds'>;

/**
 * Whether a refund took back what the order's line of this grade delivers: the whole order was
 * refunded (refunds add up to its total; nothing refunded yet is 0), or that grade's lines were.
 */
export function isRefunded(order: RefundFields, productStockGradeId: string): boolean {
  const refunded = order.refundedMinor ?? 0;
  if (refunded > 0 && refunded >= order.totalMinor) return true;
  return order.refundedGradeIds?.includes(productStockGradeId) ?? false;
}

export interface AccessFacts {
  order: RefundFields;
  productStockGradeId: string;
  billing: 'once' | 'subscription';
  /** For a subscription grade: whether one of the buyer's subscriptions to it gives entitlement now. */
  entitled: boolean;
  downloadsTaken: number;
  downloadLimit: number;
}

/** Refund first (it is final), then the subscription, then the count. */
export function accessOf(facts: AccessFacts): DownloadAccess {
  if (isRefunded(facts.order, facts.productStockGradeId)) return 'refunded';
  if (facts.billing === 'subscription' && !facts.entitled) return 'subscription-ended';
  if (facts.downloadsTaken >= facts.downloadLimit) return 'used-up';
  return 'available';
}

export const downloadsLeft = (taken: number, limit: number): number => Math.max(0, limit - taken);
