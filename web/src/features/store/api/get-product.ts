import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const getProductEndpoint = endpoint<typeof routes.getProduct>('GET', '/api/i/penpay/product/{productStockId}/v');

/**
 * A product page: its shop, the product and the grades a customer may see. Unlisted products
 * answer to anyone with the link; a private one is 404 to all but its merchant.
 */
export function getProduct(productStockId: string, signal?: AbortSignal) {
  return getProductEndpoint({ params: { productStockId }, ...(signal ? { signal } : {}) });
}

export function productQueryOptions(productStockId: string) {
  return queryOptions({
    queryKey: storeKeys.product(productStockId),
    queryFn: ({ signal }) => getProduct(productStockId, signal),
  });
}

export function useProduct(productStockId: string) {
  return useQuery(productQueryOptions(productStockId));
}
