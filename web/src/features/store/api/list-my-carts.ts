import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const listMyCartsEndpoint = endpoint<typeof routes.listMyCarts>('GET', '/api/i/penpay/customer/me/v/carts');

/** The caller's open carts (shops where something is in their cart), the one added to last first. */
export function listMyCarts(signal?: AbortSignal) {
  return listMyCartsEndpoint(signal ? { signal } : {});
}

export function myCartsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: storeKeys.openCarts(userId),
    queryFn: ({ signal }) => listMyCarts(signal),
    select: (page) => page.items,
    // Every cart change made here invalidates it; another tab's shows within a minute, or on focus.
    staleTime: 60_000,
  });
}

/**
 * The signed-in person's open carts; nothing is asked for a visitor (`userId` null: the caller
 * got it from useCurrentUser, which asks nobody without a session).
 */
export function useMyCarts(userId: string | null) {
  return useQuery({ ...myCartsQueryOptions(userId ?? ''), enabled: userId !== null });
}
