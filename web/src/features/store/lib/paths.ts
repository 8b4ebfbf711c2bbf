/** The store's pages for customers (registered in web/src/app/router.tsx). */
export const ORDERS_PATH = '/store/orders';

/** A shop's page, by its handle (its address) or its id. */
export function shopPath(shopIdOrHandle: string): string {
  return `/shop/${encodeURIComponent(shopIdOrHandle)}`;
}

export function productPath(productStockId: string): string {
  return `/product/${encodeURIComponent(productStockId)}`;
}

export function gradePath(productStockId: string, productStockGradeId: string): string {
  return `${productPath(productStockId)}/grade/${encodeURIComponent(productStockGradeId)}`;
}

/** The cart at one shop: a customer has one per shop, each paid at that shop's own payment account. */
export function cartPath(merchantAccountId: string): string {
  return `/cart/${encodeURIComponent(merchantAccountId)}`;
}
