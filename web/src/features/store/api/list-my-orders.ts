import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const listMyOrdersEndpoint = endpoint<typeof routes.listMyOrders>('GET', '/api/i/penpay/customer/me/v/orders');

/** A page of the caller's paid orders across every shop, newest first. */
export function listMyOrders(cursor: string | undefined, signal?: AbortSignal) {
  return listMyOrdersEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

export function myOrdersQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: storeKeys.orders(userId),
    queryFn: ({ pageParam, signal }) => listMyOrders(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

export function useMyOrders(userId: string) {
  return useInfiniteQuery(myOrdersQueryOptions(userId));
}
