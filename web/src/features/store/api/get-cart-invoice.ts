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
export function getCartInvoice(merchantAccountId: string, signal?: AbortSignal, discountCode?: string) {
  return getCartInvoiceEndpoint({
    query: { merchantAccountId, ...(discountCode ? { discountCode } : {}) },
    ...(signal ? { signal } : {}),
  });
}

/**
 * With `discountCode`, the invoice is priced with it by the server (a code it refuses is a 400 or
 * 409 saying why). Under the cart's key, so every change to the cart refetches it too.
 */
export function cartInvoiceQueryOptions(userId: string, merchantAccountId: string, discountCode?: string) {
  return queryOptions({
    queryKey: [...storeKeys.cart(userId, merchantAccountId), discountCode?.toLowerCase() ?? null],
    queryFn: ({ signal }) => getCartInvoice(merchantAccountId, signal, discountCode),
    // Applying or removing a code shows the cart as it was until the new price comes.
    placeholderData: (previous) => (previous?.shop.id === merchantAccountId ? previous : undefined),
    // Not while someone types a card in: a refetch on focus could change the total under the Pay
    // button. The page refetches itself whenever the cart changes, and when paying finds it stale.
    refetchOnWindowFocus: false,
  });
}

export function useCartInvoice(userId: string, merchantAccountId: string, discountCode?: string) {
  return useQuery(cartInvoiceQueryOptions(userId, merchantAccountId, discountCode));
}
