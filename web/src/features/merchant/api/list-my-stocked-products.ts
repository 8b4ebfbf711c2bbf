import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listMyStockedProductsEndpoint = endpoint<typeof routes.listMyStockedProducts>(
  'GET',
  '/api/i/penpay/merchant/me/v/feed/products/stocked',
);

/** The caller's products on sale (any visibility), newest first, a page at a time. */
export function listMyStockedProducts(cursor: string | undefined, signal?: AbortSignal) {
  return listMyStockedProductsEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

export function myStockedProductsQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: merchantKeys.productList(userId, 'stocked'),
    queryFn: ({ pageParam, signal }) => listMyStockedProducts(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

/** Idle until its list is shown (`enabled`). */
export function useMyStockedProducts(userId: string, enabled = true) {
  return useInfiniteQuery({ ...myStockedProductsQueryOptions(userId), enabled });
}
