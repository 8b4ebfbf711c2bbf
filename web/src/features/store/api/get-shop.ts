import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const getShopEndpoint = endpoint<typeof routes.getShop>('GET', '/api/i/penpay/merchant/{merchantAccountId}/v');

/** A shop as customers see it, by its id (mer_…) or its handle: 404 for an unknown one. */
export function getShop(shopId: string, signal?: AbortSignal) {
  return getShopEndpoint({ params: { merchantAccountId: shopId }, ...(signal ? { signal } : {}) });
}

export function shopQueryOptions(shopId: string) {
  return queryOptions({ queryKey: storeKeys.shop(shopId), queryFn: ({ signal }) => getShop(shopId, signal) });
}

export function useShop(shopId: string) {
  return useQuery(shopQueryOptions(shopId));
}
