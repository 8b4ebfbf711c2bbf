import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { ProPriceId } from './subscription-keys';
import { subscriptionKeys } from './subscription-keys';

const showCheckoutScreenEndpoint = endpoint<typeof routes.showCheckoutScreen>('GET', '/api/i/ourTransfers/show/checkout');

/**
 * The checkout of one price: the caller's open invoice for it (the same one on every call until
 * it is paid), and a client token for the card form (`payment`, null when already on Pro).
 */
export function showCheckoutScreen(priceId: ProPriceId, signal?: AbortSignal) {
  return showCheckoutScreenEndpoint({ query: { priceId }, ...(signal ? { signal } : {}) });
}

export function checkoutScreenQueryOptions(userId: string, priceId: ProPriceId) {
  return queryOptions({
    queryKey: subscriptionKeys.checkout(userId, priceId),
    queryFn: ({ signal }) => showCheckoutScreen(priceId, signal),
    // The card form is built from this answer's client token: a refetch in the middle of paying
    // (on focus, say) would rebuild the form and lose what was typed. Dropped once the page is
    // left, so the next checkout asks again.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

export function useCheckoutScreen(userId: string, priceId: ProPriceId) {
  return useQuery(checkoutScreenQueryOptions(userId, priceId));
}
