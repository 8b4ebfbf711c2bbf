/**
 * A customer's orders across every shop, newest first: one Query of gsi1 per page. An order keeps
 * the shop's name and the lines as they were paid; only the files its grades deliver, and their
 * downloads left, are read besides (digital-downloads.ts), and the refunds of the orders that have some.
 */
import type { OrderDownloadView } from '../../../shared/schemas/digital-products';
import type { OrderView } from '../../../shared/schemas/store';
import type { StoreRefundItem } from '../../lib/db/entities/store-refund';
import { checkedCursor } from '../../lib/db/cursors';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import type { Db } from '../../lib/db/service';
import { downloadsOfOrders } from './digital-downloads';
import { readRefunds, toRefundView } from './refund-records';

export const ORDERS_PAGE_SIZE = 20;

export function toOrderView(
  order: StoreOrderItem,
  extras: { downloads?: OrderDownloadView[]; refunds?: readonly StoreRefundItem[] } = {},
): OrderView {
  const { downloads = [], refunds = [] } = extras;
  const money = (amountMinor: number) => ({ amountMinor, currency: order.currency });
  return {
    invoiceId: order.invoiceId,
    shop: { id: order.merchantAccountId, handle: order.handle, shopName: order.shopName },
    lines: order.lines.map((line) => ({
      productStockId: line.productStockId,
      productStockGradeId: line.productStockGradeId,
      description: line.description,
      billing: line.billing,
      quantity: line.quantity,
      unitPrice: money(line.unitPriceMinor),
      discount: money(line.discountMinor ?? 0),
    })),
    total: money(order.totalMinor),
    discount:
      order.discountCode === undefined
        ? null
        : { code: order.discountCode, saving: money(order.lines.reduce((sum, line) => sum + (line.discountMinor ?? 0), 0)) },
    card: order.card ? { cardType: order.card.cardType, last4: order.card.last4 } : null,
    paidAt: order.paidAt,
    downloads,
    refunded: money(order.refundedMinor ?? 0),
    refunds: refunds.map((refund) => toRefundView(refund, order)),
  };
}

export async function myOrdersPage(
  db: Db,
  customerId: string,
  cursor: string | undefined,
): Promise<{ items: OrderView[]; cursor: string | null }> {
  const query = db.entities.storeOrder.query.byCustomer({ customerId });
  const from = checkedCursor(cursor, query, 'gsi1pk');
  const page = await query.go({ order: 'desc', limit: ORDERS_PAGE_SIZE, ...(from ? { cursor: from } : {}) });
  // Only refunded orders cost a read more: one Query each, all at once.
  const [downloads, refunds] = await Promise.all([
    downloadsOfOrders(db, page.data, new Date()),
    Promise.all(
      page.data.map((order) => ((order.refundCount ?? 0) > 0 ? readRefunds(db, order.invoiceId) : Promise.resolve([]))),
    ),
  ]);
  return {
    items: page.data.map((order, index) =>
      toOrderView(order, { downloads: downloads.get(order.invoiceId) ?? [], refunds: refunds[index] ?? [] }),
    ),
    cursor: page.cursor ?? null,
  };
}
