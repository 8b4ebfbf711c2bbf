import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const showProductDashboardEndpoint = endpoint<typeof routes.showProductDashboard>(
  'GET',
  '/api/i/penpay/merchant/me/v/screen/product/{productStockId}',
);

/** One of the caller's products with its grades, figures and latest sales; 404 for anyone else's. */
export function showProductDashboard(productStockId: string, signal?: AbortSignal) {
  return showProductDashboardEndpoint({ params: { productStockId }, ...(signal ? { signal } : {}) });
}

export function productDashboardQueryOptions(userId: string, productStockId: string) {
  return queryOptions({
    queryKey: merchantKeys.productDashboard(userId, productStockId),
    queryFn: ({ signal }) => showProductDashboard(productStockId, signal),
  });
}

export function useProductDashboard(userId: string, productStockId: string) {
  return useQuery(productDashboardQueryOptions(userId, productStockId));
}
