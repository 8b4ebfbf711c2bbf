import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const getShopPaymentClientEndpoint = endpoint<typeof routes.getShopPaymentClient>(
  'GET',
  '/api/i/penpay/customer/me/v/shop/{merchantAccountId}/client_token',
);

/**
 * A client token of the shop's own payment account for the card form: the card is tokenized
 * there, for that merchant. 409 when the shop takes no payments yet.
 */
export function getShopPaymentClient(merchantAccountId: string, signal?: AbortSignal) {
  return getShopPaymentClientEndpoint({ params: { merchantAccountId }, ...(signal ? { signal } : {}) });
}

export function shopPaymentClientQueryOptions(userId: string, merchantAccountId: string) {
  return queryOptions({
    queryKey: storeKeys.paymentClient(userId, merchantAccountId),
    queryFn: ({ signal }) => getShopPaymentClient(merchantAccountId, signal),
    // A client token expires: each card form asks for a new one, and none is refetched while the
    // form is in use, which would rebuild it and lose what was typed.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** Asked for only while a card form is shown (`enabled`). */
export function useShopPaymentClient(userId: string, merchantAccountId: string, enabled = true) {
  return useQuery({ ...shopPaymentClientQueryOptions(userId, merchantAccountId), enabled });
}
