import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listMyStockedGradesEndpoint = endpoint<typeof routes.listMyStockedGrades>(
  'GET',
  '/api/i/penpay/merchant/me/v/feed/product/{productStockId}/grades/stocked',
);

/** One of the caller's products' grades on sale, in display order, a page at a time. */
export function listMyStockedGrades(productStockId: string, cursor: string | undefined, signal?: AbortSignal) {
  return listMyStockedGradesEndpoint({
    params: { productStockId },
    query: cursor ? { cursor } : {},
    ...(signal ? { signal } : {}),
  });
}

export function myStockedGradesQueryOptions(userId: string, productStockId: string) {
  return infiniteQueryOptions({
    queryKey: merchantKeys.gradeList(userId, productStockId, 'stocked'),
    queryFn: ({ pageParam, signal }) => listMyStockedGrades(productStockId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

/** Idle until its list is shown (`enabled`). */
export function useMyStockedGrades(userId: string, productStockId: string, enabled = true) {
  return useInfiniteQuery({ ...myStockedGradesQueryOptions(userId, productStockId), enabled });
}
