/**
 * Reading a shop's products and grades for their merchant (anything of theirs, 404 for anyone
 * else's) and for customers (what visibility allows), and what can be bought.
 */
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import type { Db } from '../../lib/db/service';
import { NotFound } from '../../lib/errors';

export class ProductNotFound extends NotFound {
  constructor() {
    super('No such product.');
  }
}

export class GradeNotFound extends NotFound {
  constructor() {
    super('No such grade.');
  }
}

export async function readProduct(db: Db, productStockId: string, consistent = false): Promise<ProductStockItem | null> {
  const { data } = await db.entities.productStock.get({ productStockId }).go({ consistent });
  return data ?? null;
}

export async function readGrade(db: Db, productStockGradeId: string, consistent = false): Promise<ProductStockGradeItem | null> {
  const { data } = await db.entities.productStockGrade.get({ productStockGradeId }).go({ consistent });
  return data ?? null;
}

/** One of the merchant's products; another merchant's is as absent as a made-up id. */
export async function readMyProduct(db: Db, merchant: MerchantAccountItem, productStockId: string): Promise<ProductStockItem> {
  const product = await readProduct(db, productStockId, true);
  if (!product || product.merchantAccountId !== merchant.merchantAccountId) throw new ProductNotFound();
  return product;
}

/** One of the merchant's grades, under the product the path names. */
export async function readMyGrade(
  db: Db,
  merchant: MerchantAccountItem,
  productStockId: string | undefined,
  productStockGradeId: string,
): Promise<ProductStockGradeItem> {
  const grade = await readGrade(db, productStockGradeId, true);
  if (
    !grade ||
    grade.merchantAccountId !== merchant.merchantAccountId ||
    (productStockId !== undefined && grade.productStockId !== productStockId)
  ) {
    throw new GradeNotFound();
  }
  return grade;
}

/** Every grade of a product (a product has tens at most), in display order, stocked first. */
export async function listGradesOf(db: Db, productStockId: string): Promise<ProductStockGradeItem[]> {
  const grades: ProductStockGradeItem[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: ProductStockGradeItem[]; cursor: string | null } = await db.entities.productStockGrade.query
      .byProduct({ productStockId })
      .go({ cursor, limit: 100 });
    grades.push(...page.data);
    cursor = page.cursor;
  } while (cursor);
  return grades;
}

/** Whether a customer may see it: anything but private; private only to its merchant. */
export const visibleTo = (item: { visibility: string; merchantAccountId: string }, viewerMerchantId: string | null) =>
  item.visibility !== 'private' || item.merchantAccountId === viewerMerchantId;

/** Whether a customer can buy this grade now: stocked and not private, its product too, and the shop open and connected. */
export function isPurchasable(
  merchant: MerchantAccountItem | null,
  product: ProductStockItem,
  grade: ProductStockGradeItem,
): boolean {
  return (
    merchant !== null &&
    merchant.closedAt === undefined &&
    merchant.gateway !== undefined &&
    product.stocked &&
    product.visibility !== 'private' &&
    grade.stocked &&
    grade.visibility !== 'private' &&
    grade.productStockId === product.productStockId
  );
}

/**
 * Recomputes what a product keeps from its grades (their count, the lowest price of the stocked,
 * non-private ones): called after any change to one of its grades, with that grade as it was
 * just written (the index it is listed by may not show the write yet).
 */
export async function refreshProductSummary(
  db: Db,
  productStockId: string,
  changed: ProductStockGradeItem,
  now: Date,
): Promise<void> {
  const listed = await listGradesOf(db, productStockId);
  const grades = [...listed.filter((grade) => grade.productStockGradeId !== changed.productStockGradeId), changed];
  const sellable = grades.filter((grade) => grade.stocked && grade.visibility !== 'private');
  const lowest = sellable.length ? Math.min(...sellable.map((grade) => grade.priceMinor)) : undefined;
  const update = db.entities.productStock.patch({ productStockId }).set({
    gradeCount: grades.length,
    updatedAt: now.toISOString(),
    ...(lowest !== undefined ? { lowestPriceMinor: lowest } : {}),
  });
  await (lowest === undefined ? update.remove(['lowestPriceMinor']) : update).go();
}
