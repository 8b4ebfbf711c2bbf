/**
 * The shop's public pages: a shop, its listed products, a product with its grades, a grade. They
 * are read under load (p99 goal 25 ms), so each is as few rounds of reads as its keys allow, in
 * parallel, and a feed reads no grades (a product keeps its grade count and lowest price).
 *
 * A closed shop (its owner deleted their account) answers none of them: each is a 404 that says
 * the shop has closed.
 *
 * Visibility: a private product or grade is the merchant's draft, so to anyone else it is as
 * absent as a made-up id (404); an unlisted one answers to whoever has its link but is never
 * listed; an unstocked one still answers, unpurchasable, because its subscribers keep seeing it.
 *
 * The answers are public and cached at the edge by path alone, so an answer that shows the
 * merchant their own drafts must never be stored there: `personal` says when it is one, and the
 * handler then answers it uncached.
 */
import { MERCHANT_ID_PATTERN, type GradeView, type ProductStockView } from '../../../shared/schemas/merchant';
import { type ShopView } from '../../../shared/schemas/store';
import { checkedCursor } from '../../lib/db/cursors';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import type { Db } from '../../lib/db/service';
import type { Caller } from '../../lib/http/caller';
import { GradeNotFound, isPurchasable, listGradesOf, ProductNotFound, readGrade, readProduct } from './catalog';
import { isOpen, readMerchantById, ShopClosed, ShopNotFound } from './merchants';
import { toGradeView, toProductView, toShopView } from './views';

export const SHOP_FEED_PAGE_SIZE = 20;

/** An answer, and whether it shows the caller something only they may see (then it is not cached). */
export interface ShopAnswer<T> {
  body: T;
  personal: boolean;
}

/** The merchant account id the caller views as: theirs when they own this shop, else none (a customer). */
const viewerOf = (caller: Caller, merchant: MerchantAccountItem | null): string | null =>
  caller.kind === 'user' && merchant !== null && merchant.ownerId === caller.userId ? merchant.merchantAccountId : null;

/** A shop's id from its id or its handle: one read for a handle, none for an id. */
async function shopIdOf(db: Db, idOrHandle: string): Promise<string> {
  if (MERCHANT_ID_PATTERN.test(idOrHandle)) return idOrHandle;
  const { data: handle } = await db.entities.merchantHandle.get({ handle: idOrHandle }).go();
  if (!handle) throw new ShopNotFound();
  return handle.merchantAccountId;
}

/**
 * A shop's listed products (public and stocked: the gsi2 'listed' shelf), featured first then by
 * position. The shop and the page are read side by side; an unknown shop is a 404 even though
 * its (empty) page could be answered.
 */
export async function shopProductsPage(
  db: Db,
  idOrHandle: string,
  cursor: string | undefined,
): Promise<{ items: ProductStockView[]; cursor: string | null }> {
  const merchantAccountId = await shopIdOf(db, idOrHandle);
  const query = db.entities.productStock.query.byShelf({ merchantAccountId, shelf: 'listed' });
  const from = checkedCursor(cursor, query, 'gsi2pk');
  const [merchant, page] = await Promise.all([
    readMerchantById(db, merchantAccountId),
    query.go({ order: 'asc', limit: SHOP_FEED_PAGE_SIZE, ...(from ? { cursor: from } : {}) }),
  ]);
  if (!merchant) throw new ShopNotFound();
  if (!isOpen(merchant)) throw new ShopClosed();
  const connected = merchant.gateway !== undefined;
  return {
    items: await Promise.all(page.data.map((product) => toProductView(product, connected))),
    cursor: page.cursor ?? null,
  };
}

/**
 * The grades of a product a customer sees: the public ones, stocked or not, in the catalog's
 * order (stocked first, then display order). Unlisted grades are reached by their own link only,
 * as unlisted products are; the merchant sees every grade of theirs.
 */
function gradesShown(
  grades: readonly ProductStockGradeItem[],
  viewer: string | null,
  merchant: MerchantAccountItem,
  product: ProductStockItem,
): GradeView[] {
  return grades
    .filter((grade) => grade.visibility === 'public' || grade.merchantAccountId === viewer)
    .map((grade) => toGradeView(grade, isPurchasable(merchant, product, grade)));
}

/** The product, its shop and its grades, read in two rounds: the product and its grades at once, then its shop. */
async function readProductPage(db: Db, productStockId: string, caller: Caller) {
  const [product, grades] = await Promise.all([readProduct(db, productStockId), listGradesOf(db, productStockId)]);
  if (!product) throw new ProductNotFound();
  const merchant = await readMerchantById(db, product.merchantAccountId);
  const viewer = viewerOf(caller, merchant);
  if (!merchant || (product.visibility === 'private' && viewer === null)) throw new ProductNotFound();
  if (!isOpen(merchant)) throw new ShopClosed();
  return { product, grades, merchant, viewer };
}

export async function productPage(
  db: Db,
  productStockId: string,
  caller: Caller,
): Promise<ShopAnswer<{ shop: ShopView; product: ProductStockView; grades: GradeView[] }>> {
  const { product, grades, merchant, viewer } = await readProductPage(db, productStockId, caller);
  const [shop, productView] = await Promise.all([toShopView(merchant), toProductView(product, merchant.gateway !== undefined)]);
  return {
    body: { shop, product: productView, grades: gradesShown(grades, viewer, merchant, product) },
    personal: viewer !== null,
  };
}

export async function productGrades(db: Db, productStockId: string, caller: Caller): Promise<ShopAnswer<{ items: GradeView[] }>> {
  const { product, grades, merchant, viewer } = await readProductPage(db, productStockId, caller);
  return { body: { items: gradesShown(grades, viewer, merchant, product) }, personal: viewer !== null };
}

/** A grade's page: the grade and its product read at once, then the shop; a grade named under another product is a 404. */
export async function gradePage(
  db: Db,
  productStockId: string,
  productStockGradeId: string,
  caller: Caller,
): Promise<ShopAnswer<{ shop: ShopView; product: ProductStockView; grade: GradeView }>> {
  const [product, grade] = await Promise.all([readProduct(db, productStockId), readGrade(db, productStockGradeId)]);
  if (!product || !grade || grade.productStockId !== product.productStockId) throw new GradeNotFound();
  const merchant = await readMerchantById(db, product.merchantAccountId);
  const viewer = viewerOf(caller, merchant);
  if (!merchant || (viewer === null && (product.visibility === 'private' || grade.visibility === 'private'))) {
    throw new GradeNotFound();
  }
  if (!isOpen(merchant)) throw new ShopClosed();
  const [shop, productView] = await Promise.all([toShopView(merchant), toProductView(product, merchant.gateway !== undefined)]);
  return {
    body: { shop, product: productView, grade: toGradeView(grade, isPurchasable(merchant, product, grade)) },
    personal: viewer !== null,
  };
}
