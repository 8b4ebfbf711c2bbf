/**
 * The merchant's own lists: their products by stock state, newest first, and a product's grades
 * by stock state in display order. Each page is one Query of gsi1; a cursor from the client is
 * checked to name that same partition before it reaches the table.
 */
import type { GradeView, ProductStockView } from '../../../shared/schemas/merchant';
import { checkedCursor } from '../../lib/db/cursors';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem, STOCK_STATES } from '../../lib/db/entities/product-stock';
import type { Db } from '../../lib/db/service';
import { isPurchasable } from './catalog';
import { toGradeView, toProductView } from './views';

export const MERCHANT_FEED_PAGE_SIZE = 20;

type StockState = (typeof STOCK_STATES)[number];

export async function myProductsPage(
  db: Db,
  merchant: MerchantAccountItem,
  stockState: StockState,
  cursor: string | undefined,
): Promise<{ items: ProductStockView[]; cursor: string | null }> {
  const query = db.entities.productStock.query.byMerchant({ merchantAccountId: merchant.merchantAccountId, stockState });
  const from = checkedCursor(cursor, query, 'gsi1pk');
  const page = await query.go({ order: 'desc', limit: MERCHANT_FEED_PAGE_SIZE, ...(from ? { cursor: from } : {}) });
  const connected = merchant.gateway !== undefined;
  return {
    items: await Promise.all(page.data.map((product) => toProductView(product, connected))),
    cursor: page.cursor ?? null,
  };
}

export async function myGradesPage(
  db: Db,
  merchant: MerchantAccountItem,
  product: ProductStockItem,
  stockState: StockState,
  cursor: string | undefined,
): Promise<{ items: GradeView[]; cursor: string | null }> {
  const query = db.entities.productStockGrade.query.byProduct({ productStockId: product.productStockId, stockState });
  const from = checkedCursor(cursor, query, 'gsi1pk');
  const page = await query.go({ order: 'asc', limit: MERCHANT_FEED_PAGE_SIZE, ...(from ? { cursor: from } : {}) });
  return {
    items: page.data.map((grade) => toGradeView(grade, isPurchasable(merchant, product, grade))),
    cursor: page.cursor ?? null,
  };
}
