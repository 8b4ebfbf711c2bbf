import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const getProductGradeEndpoint = endpoint<typeof routes.getProductGrade>(
  'GET',
  '/api/i/penpay/product/{productStockId}/v/grade/{productStockGradeId}',
);

/** A grade page: its shop, its product and the grade, under the product page's visibility rules. */
export function getProductGrade(productStockId: string, productStockGradeId: string, signal?: AbortSignal) {
  return getProductGradeEndpoint({ params: { productStockId, productStockGradeId }, ...(signal ? { signal } : {}) });
}

export function productGradeQueryOptions(productStockId: string, productStockGradeId: string) {
  return queryOptions({
    queryKey: storeKeys.grade(productStockId, productStockGradeId),
    queryFn: ({ signal }) => getProductGrade(productStockId, productStockGradeId, signal),
  });
}

export function useProductGrade(productStockId: string, productStockGradeId: string) {
  return useQuery(productGradeQueryOptions(productStockId, productStockGradeId));
}
