import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listMyUnstockedGradesEndpoint = endpoint<typeof routes.listMyUnstockedGrades>(
  'GET',
  '/api/i/penpay/merchant/me/v/feed/product/{productStockId}/grades/unstocked',
);

/** One of the caller's products' grades taken off sale, a page at a time. */
export function listMyUnstockedGrades(productStockId: string, cursor: string | undefined, signal?: AbortSignal) {
  return listMyUnstockedGradesEndpoint({
    params: { productStockId },
    query: cursor ? { cursor } : {},
    ...(signal ? { signal } : {}),
  });
}

export function myUnstockedGradesQueryOptions(userId: string, productStockId: string) {
  return infiniteQueryOptions({
    queryKey: merchantKeys.gradeList(userId, productStockId, 'unstocked'),
    queryFn: ({ pageParam, signal }) => listMyUnstockedGrades(productStockId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

/** Idle until its list is shown (`enabled`). */
export function useMyUnstockedGrades(userId: string, productStockId: string, enabled = true) {
  return useInfiniteQuery({ ...myUnstockedGradesQueryOptions(userId, productStockId), enabled });
}
