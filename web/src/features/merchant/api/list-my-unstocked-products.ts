import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listMyUnstockedProductsEndpoint = endpoint<typeof routes.listMyUnstockedProducts>(
  'GET',
  '/api/i/penpay/merchant/me/v/feed/products/unstocked',
);

/** The caller's products taken off sale (still shown to their subscribers), newest first, a page at a time. */
export function listMyUnstockedProducts(cursor: string | undefined, signal?: AbortSignal) {
  return listMyUnstockedProductsEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

export function myUnstockedProductsQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: merchantKeys.productList(userId, 'unstocked'),
    queryFn: ({ pageParam, signal }) => listMyUnstockedProducts(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

/** Idle until its list is shown (`enabled`). */
export function useMyUnstockedProducts(userId: string, enabled = true) {
  return useInfiniteQuery({ ...myUnstockedProductsQueryOptions(userId), enabled });
}
