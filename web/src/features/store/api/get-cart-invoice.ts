import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const getCartInvoiceEndpoint = endpoint<typeof routes.getCartInvoice>('GET', '/api/i/penpay/customer/me/v/cartInvoice');

/**
 * The caller's cart at one shop, priced from the grades as they are now, and the invoice for
 * what can be bought (null when nothing can). Lines whose price changed or that stopped being
 * sold are flagged.
 */
export function getCartInvoice(merchantAccountId: string, signal?: AbortSignal) {
  return getCartInvoiceEndpoint({ query: { merchantAccountId }, ...(signal ? { signal } : {}) });
}

export function cartInvoiceQueryOptions(userId: string, merchantAccountId: string) {
  return queryOptions({
    queryKey: storeKeys.cart(userId, merchantAccountId),
    queryFn: ({ signal }) => getCartInvoice(merchantAccountId, signal),
    // Not while someone types a card in: a refetch on focus could change the total under the Pay
    // button. The page refetches itself whenever the cart changes, and when paying finds it stale.
    refetchOnWindowFocus: false,
  });
}

export function useCartInvoice(userId: string, merchantAccountId: string) {
  return useQuery(cartInvoiceQueryOptions(userId, merchantAccountId));
}
