import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const listShopProductsEndpoint = endpoint<typeof routes.listShopProducts>(
  'GET',
  '/api/i/penpay/merchant/{merchantAccountId}/v/feed/products',
);

/** A page of a shop's listed products (public and stocked), featured first, then in the merchant's order. */
export function listShopProducts(shopId: string, cursor: string | undefined, signal?: AbortSignal) {
  return listShopProductsEndpoint({
    params: { merchantAccountId: shopId },
    query: cursor ? { cursor } : {},
    ...(signal ? { signal } : {}),
  });
}

export function shopProductsQueryOptions(shopId: string) {
  return infiniteQueryOptions({
    queryKey: storeKeys.shopProducts(shopId),
    queryFn: ({ pageParam, signal }) => listShopProducts(shopId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

export function useShopProducts(shopId: string) {
  return useInfiniteQuery(shopProductsQueryOptions(shopId));
}
