import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const showGradeDashboardEndpoint = endpoint<typeof routes.showGradeDashboard>(
  'GET',
  '/api/i/penpay/merchant/me/v/screen/product/{productStockId}/grade/{productStockGradeId}',
);

/** One grade of the caller's product with its figures and latest sales; 404 for anyone else's. */
export function showGradeDashboard(productStockId: string, productStockGradeId: string, signal?: AbortSignal) {
  return showGradeDashboardEndpoint({ params: { productStockId, productStockGradeId }, ...(signal ? { signal } : {}) });
}

export function gradeDashboardQueryOptions(userId: string, productStockId: string, productStockGradeId: string) {
  return queryOptions({
    queryKey: merchantKeys.gradeDashboard(userId, productStockId, productStockGradeId),
    queryFn: ({ signal }) => showGradeDashboard(productStockId, productStockGradeId, signal),
  });
}

export function useGradeDashboard(userId: string, productStockId: string, productStockGradeId: string) {
  return useQuery(gradeDashboardQueryOptions(userId, productStockId, productStockGradeId));
}
