import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listGradeFilesEndpoint = endpoint<typeof routes.listGradeFiles>(
  'GET',
  '/api/i/penpay/merchant/me/v/grade/{productStockGradeId}/files',
);

/** The files the caller's grade delivers after purchase, and the downloads each purchase gets. */
export function listGradeFiles(productStockGradeId: string, signal?: AbortSignal) {
  return listGradeFilesEndpoint({ params: { productStockGradeId }, ...(signal ? { signal } : {}) });
}

export function gradeFilesQueryOptions(userId: string, productStockGradeId: string) {
  return queryOptions({
    queryKey: merchantKeys.gradeFiles(userId, productStockGradeId),
    queryFn: ({ signal }) => listGradeFiles(productStockGradeId, signal),
  });
}

export function useGradeFiles(userId: string, productStockGradeId: string) {
  return useQuery(gradeFilesQueryOptions(userId, productStockGradeId));
}
