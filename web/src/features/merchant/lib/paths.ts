/** Where the merchant area's pages are (web/src/app/router.tsx), and where customers see the shop. */
export const MERCHANT_PATH = '/merchant';

export function merchantProductPath(productStockId: string): string {
  return `/merchant/products/${encodeURIComponent(productStockId)}`;
}

export function merchantGradePath(productStockId: string, productStockGradeId: string): string {
  return `${merchantProductPath(productStockId)}/grades/${encodeURIComponent(productStockGradeId)}`;
}

/** The shop as customers see it. */
export function shopPath(handle: string): string {
  return `/shop/${handle}`;
}

/** A product's page in the shop. */
export function shopProductPath(productStockId: string): string {
  return `/product/${encodeURIComponent(productStockId)}`;
}
